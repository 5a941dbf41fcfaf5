"""A whole period claimed of a query bounded in time (``whole_windows``). Incidents of their
own: a payments API's minutes, a warehouse scanner's shifts."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

EARLY = sql_result(
    "SELECT SUM(requests) AS requests, SUM(declines) AS declines FROM payment_minutes "
    "WHERE minute < '2026-10-07 09:40:00'",
    ["requests", "declines"],
    [[3120, 41]],
)
ALL_DAY = sql_result(
    "SELECT scanner, COUNT(id) AS scans FROM scans WHERE site = 'leeds' GROUP BY scanner",
    ["scanner", "scans"],
    [["sc-1", 811], ["sc-2", 790]],
)
SHIFT = sql_result(
    "SELECT COUNT(id) AS scans FROM scans WHERE site = 'leeds' "
    "AND scanned_at BETWEEN '2026-10-07 06:00:00' AND '2026-10-07 14:00:00'",
    ["scans"],
    [[1601]],
)

HONEST = [
    pytest.param("Before 09:40 UTC the API took 3120 payment requests with 41 declines.", EARLY,
                 id="the bound written as a time"),
    pytest.param("Over the whole day leeds recorded 811 scans on sc-1 and 790 on sc-2.", ALL_DAY,
                 id="no time bound in the query"),
    pytest.param("leeds recorded 1601 scans between 6 am and 2 pm.", SHIFT,
                 id="a range written"),
]  # fmt: skip

TWINS = [
    pytest.param("Over the whole window the API took 3120 payment requests with 41 declines.",
                 EARLY, id="whole window of an early bound"),
    pytest.param("The API declined 41 payments all day.", EARLY, id="all day"),
    pytest.param("leeds recorded 1601 scans throughout the incident.", SHIFT, id="throughout"),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "cited"), HONEST)
def test_a_period_the_query_read_is_grounded(claim: str, cited: JsonObject) -> None:
    assert reason_of(SUPPORT, claim, cited) is None


@pytest.mark.parametrize(("claim", "cited"), TWINS)
def test_a_whole_period_of_a_bounded_query_is_refused(claim: str, cited: JsonObject) -> None:
    assert reason_of(SUPPORT, claim, cited) is not None
