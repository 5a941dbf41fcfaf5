"""Numbers that are the cited query's own terms (``status=502`` searched, ``http_code = 500``,
``LIMIT 5``) are grounded as what was searched, never as a count.

The cited calls are of an incident of their own: a parcel-locker API whose upstream answers
HTTP 502."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.release.judge.claims import parse_claim
from factledger.domain.release.judge.evidence import view_of
from factledger.domain.release.judge.query_terms import query_term
from tests.unit.release.judge.incidents import (
    NEGATIVE,
    SUPPORT,
    log_result,
    reason_of,
    sql_result,
)

NO_502 = log_result(
    "locker-api",
    "status=502",
    [],
    start="2026-11-28T14:00:00.000Z",
    end="2026-11-28T15:00:00.000Z",
)
"""A search for ``status=502`` in the hour that found nothing."""

UPSTREAM_502 = log_result(
    "locker-gateway",
    "status=502",
    [("upstream locker-api answered status=502 in <*>ms", 38, "ERROR",
      ["upstream locker-api answered status=502 in 30012ms"])],
)  # fmt: skip
"""38 lines of ``status=502``."""

FAILED_BY_SITE = sql_result(
    "SELECT site, COUNT(id) AS failed FROM locker_calls WHERE http_code = 500 AND "
    "called_at >= '2026-11-28 14:00:00' GROUP BY site ORDER BY site LIMIT 5",
    ["site", "failed"],
    [["lyon-3", 27], ["nantes-1", 9]],
)
"""HTTP 500 calls per site: 27 and 9 (a search capped at five sites)."""

TERM_CASES = [
    (
        "a searched key=value in a negative observation",
        NEGATIVE,
        "locker-api logged no status=502 lines between 14:00 and 15:00.",
        NO_502,
    ),
    (
        "a searched code named by its value",
        NEGATIVE,
        "locker-api answered no 502 between 14:00 and 15:00.",
        NO_502,
    ),
    (
        "a searched code after status",
        SUPPORT,
        "locker-gateway logged 38 status=502 errors.",
        UPSTREAM_502,
    ),
    ("a filtered code", SUPPORT, "lyon-3 had 27 calls that failed with HTTP 500.", FAILED_BY_SITE),
]


@pytest.mark.parametrize(("family", "kind", "claim", "cited"), TERM_CASES)
def test_a_query_term_is_grounded_as_what_was_searched(
    family: str, kind: AnalysisKind, claim: str, cited: JsonObject
) -> None:
    assert reason_of(kind, claim, cited) is None, family


COUNT_CASES = [
    ("a filtered code as a count", "lyon-3 had 500 calls that failed after 14:00.", FAILED_BY_SITE),
    ("the search cap as a count", "5 sites had failed calls after 14:00.", FAILED_BY_SITE),
    ("a searched code as a count", "locker-gateway logged 502 upstream errors.", UPSTREAM_502),
]


@pytest.mark.parametrize(("family", "claim", "cited"), COUNT_CASES)
def test_a_query_term_is_no_count(family: str, claim: str, cited: JsonObject) -> None:
    assert reason_of(SUPPORT, claim, cited) is not None, family


def test_a_bound_of_the_query_stays_a_bound() -> None:
    slow = sql_result(
        "SELECT site, MAX(duration_ms) AS worst_ms FROM locker_calls WHERE duration_ms > 3000"
        " GROUP BY site",
        ["site", "worst_ms"],
        [["lyon-3", 30012]],
    )
    assert (
        reason_of(SUPPORT, "lyon-3 had calls slower than 3000 ms, the worst 30012 ms.", slow)
        is None
    )


def test_a_bound_of_the_claim_is_no_term_it_is_not() -> None:
    """ "more than 2" is no term of a query capped at five rows (a bound, read exactly)."""
    claim = parse_claim("lyon-3 had more than 2 failed calls after 14:00.")
    view = view_of(FAILED_BY_SITE, FAILED_BY_SITE["scope"])
    (quantity, position), *_ = claim.quantities
    assert query_term(claim, quantity, position, [view]) is None


SLOW_SITES = sql_result(
    "SELECT site, COUNT(id) AS slow FROM locker_calls WHERE duration_s > 600 GROUP BY site",
    ["site", "slow"],
    [["lyon-3", 4]],
)
"""Calls longer than 600 seconds (the column names its unit) per site."""


@pytest.mark.parametrize(
    "claim",
    [
        "lyon-3 had 4 calls that ran for more than 600 hours.",
        "lyon-3 had 4 calls that ran for more than 600 ms.",
        "lyon-3 had 4 calls longer than 600 minutes.",
    ],
)
def test_a_bound_in_another_unit_than_the_column_is_no_term(claim: str) -> None:
    assert reason_of(SUPPORT, claim, SLOW_SITES) is not None, claim


@pytest.mark.parametrize(
    "claim",
    [
        "lyon-3 had 4 calls that ran for more than 600 s.",
        "lyon-3 had 4 calls that ran for more than 600 seconds.",
        "lyon-3 had 4 calls longer than 10 minutes.",
    ],
)
def test_a_bound_in_the_column_unit_or_converted_is_a_term(claim: str) -> None:
    assert reason_of(SUPPORT, claim, SLOW_SITES) is None, claim
