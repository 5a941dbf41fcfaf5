"""A negative observation says "no match for X in scope S" and never more: every query term,
the service, the window and every SQL predicate, over a scope read completely."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import (
    NEGATIVE,
    NO_AUTH_EXPIRED,
    NO_INDEX_OOM,
    NO_REFUNDS,
    judge_one,
    reason_of,
)

HONEST: list[tuple[str, JsonObject]] = [
    ("No index-svc log lines matched OutOfMemoryError between 14:00 and 15:00 UTC.",
     NO_INDEX_OOM),
    ("Searching index-svc logs for OutOfMemoryError from 2 pm to 3 pm found nothing.",
     NO_INDEX_OOM),
    ("index-svc logged no OutOfMemoryError in the searched hour.", NO_INDEX_OOM),
    ("The query found no refunded orders since 14:32.", NO_REFUNDS),
    ("Zero orders with status refunded were created after 2026-11-28 14:32.", NO_REFUNDS),
]  # fmt: skip

TWINS: list[tuple[str, JsonObject, str]] = [
    ("index-svc never ran out of memory.", NO_INDEX_OOM, "NEGATIVE_BROADER_THAN_SCOPE"),
    ("No index-svc log lines matched OutOfMemoryError.", NO_INDEX_OOM,
     "NEGATIVE_BROADER_THAN_SCOPE"),
    ("No index-svc log lines matched OutOfMemoryError between 13:00 and 15:00 UTC.",
     NO_INDEX_OOM, "NEGATIVE_BROADER_THAN_SCOPE"),
    ("No log lines matched OutOfMemoryError between 14:00 and 15:00 UTC.", NO_INDEX_OOM,
     "NEGATIVE_BROADER_THAN_SCOPE"),
    ("No index-svc log lines matched OutOfMemoryError or timeout between 14:00 and 15:00.",
     NO_INDEX_OOM, "NEGATIVE_BROADER_THAN_SCOPE"),
    ("Memory problems in index-svc are ruled out for 14:00 to 15:00.", NO_INDEX_OOM,
     "NEGATIVE_BROADER_THAN_SCOPE"),
    ("index-svc logged OutOfMemoryError between 14:00 and 15:00.", NO_INDEX_OOM,
     "POLARITY_MISMATCH"),
    ("The query found no failed orders since 14:32.", NO_REFUNDS,
     "NEGATIVE_BROADER_THAN_SCOPE"),
    ("The query found no refunded orders.", NO_REFUNDS, "NEGATIVE_BROADER_THAN_SCOPE"),
    ("The query found no refunded orders since 14:00.", NO_REFUNDS,
     "NEGATIVE_BROADER_THAN_SCOPE"),
    ("No auth log lines matched token expired between 14:00 and 15:00.", NO_AUTH_EXPIRED,
     "NEGATIVE_INCOMPLETE_SCOPE"),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "cited"), HONEST, ids=[c for c, _ in HONEST])
def test_an_honest_negative_observation_is_grounded(claim: str, cited: JsonObject) -> None:
    assert judge_one(NEGATIVE, claim, cited) is None


@pytest.mark.parametrize(("claim", "cited", "reason"), TWINS, ids=[c for c, _, _ in TWINS])
def test_a_broader_twin_is_refused(claim: str, cited: JsonObject, reason: str) -> None:
    assert reason_of(NEGATIVE, claim, cited) == reason


def test_a_search_that_skipped_files_supports_no_negative_observation() -> None:
    found = judge_one(NEGATIVE, "No auth log lines matched token expired in the window.",
                      NO_AUTH_EXPIRED)  # fmt: skip
    assert found is not None
    assert (found.reason.value, found.token) == ("NEGATIVE_INCOMPLETE_SCOPE", "No")
