"""A verb and its particle in the evidence ("rolled back", "failed over") is also read as the
noun the two make, as a claim writes it ("the rollback", "the failover"); a noun of another
verb or particle ("the shutdown") is still a word the evidence does not hold, and a
rollback claimed of a call that shows a failover is refused.

The cited calls are of an incident of their own: a deployer's and a database's logs."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

DEPLOYS = log_result(
    "deployer",
    "payments-api",
    [("rolled back payments-api to <*> (canary errors)", 1, "INFO",
      ["rolled back payments-api to v4.2.0 (canary errors)"])],
)  # fmt: skip
FAILOVER = log_result(
    "orders-db",
    "primary",
    [("primary failed over to <*> after <*> missed heartbeats", 1, "WARN",
      ["primary failed over to db-b after 3 missed heartbeats"])],
)  # fmt: skip

HONEST = [
    pytest.param("The rollback to v4.2.0 was done at 14:32 UTC.", DEPLOYS, id="rolled back"),
    pytest.param("The failover to db-b was done at 14:32 UTC.", FAILOVER, id="failed over"),
]

TWINS = [
    pytest.param("The shutdown of db-b was done at 14:32 UTC.", FAILOVER, id="another noun"),
    pytest.param("The rollback to db-b was done at 14:32 UTC.", FAILOVER, id="another act"),
]


@pytest.mark.parametrize(("claim", "cited"), HONEST)
def test_a_verb_and_particle_ground_their_noun(claim: str, cited: JsonObject) -> None:
    assert reason_of(SUPPORT, claim, cited) is None


@pytest.mark.parametrize(("claim", "cited"), TWINS)
def test_a_noun_the_evidence_does_not_make_is_refused(claim: str, cited: JsonObject) -> None:
    assert reason_of(SUPPORT, claim, cited) == "UNGROUNDED_TERMS"
