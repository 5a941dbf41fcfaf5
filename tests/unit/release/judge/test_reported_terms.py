"""A searched participle of reporting ("lock timeout detected") is named by the negative's own
verb of reporting ("logged no lock timeout"); without one, or with another term, the claim
stays broader than its scope. An incident of its own: an inventory database."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import NEGATIVE, log_result, reason_of

NO_TIMEOUTS = log_result("inventory-db", "lock timeout detected", [])
NO_PANICS = log_result("stock-sync", "panic raised", [])

HONEST = [
    pytest.param("inventory-db logged no lock timeout between 14:00 and 15:00 UTC.", NO_TIMEOUTS,
                 id="logged no"),
    pytest.param("inventory-db did not report a single lock timeout from 2 pm to 3 pm.",
                 NO_TIMEOUTS, id="did not report"),
    pytest.param("No lock timeout was detected by inventory-db between 14:00 and 15:00.",
                 NO_TIMEOUTS, id="the participle itself"),
    pytest.param("stock-sync logged no panic between 14:00 and 15:00 UTC.", NO_PANICS,
                 id="another participle"),
]  # fmt: skip

TWINS = [
    pytest.param("inventory-db logged no lock wait between 14:00 and 15:00 UTC.", NO_TIMEOUTS,
                 id="another term"),
    pytest.param("No service logged a lock timeout between 14:00 and 15:00 UTC.", NO_TIMEOUTS,
                 id="another service"),
    pytest.param("inventory-db logged no timeout between 14:00 and 15:00 UTC.", NO_TIMEOUTS,
                 id="a term left out"),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "cited"), HONEST)
def test_a_reporting_verb_names_the_searched_participle(claim: str, cited: JsonObject) -> None:
    assert reason_of(NEGATIVE, claim, cited) is None


@pytest.mark.parametrize(("claim", "cited"), TWINS)
def test_the_other_terms_still_bind(claim: str, cited: JsonObject) -> None:
    assert reason_of(NEGATIVE, claim, cited) is not None
