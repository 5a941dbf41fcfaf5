"""A claim over every time bucket of a result ("in each of the three minutes", "every hour",
"all five minutes") ranges over the rows of the cited SQL result, one per bucket: their
number is the count it writes, and a bound or value it states holds in every row.

The cited calls are of an incident of their own: a ride-hailing dispatch queue."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

DISPATCH = sql_result(
    "SELECT minute, dispatch_wait_ms, queued FROM dispatch_minutes WHERE city = 'lisbon' "
    "AND minute >= '2026-11-28 18:10:00' AND minute < '2026-11-28 18:13:00' ORDER BY minute",
    ["minute", "dispatch_wait_ms", "queued"],
    [["2026-11-28 18:10:00", 4200, 310], ["2026-11-28 18:11:00", 4650, 342],
     ["2026-11-28 18:12:00", 4410, 298]],
)  # fmt: skip
"""Three minutes of Lisbon dispatch: waits over 4 s, queues near 300."""

CASES = [
    (
        "a lower bound in every bucket",
        "In each of the three minutes from 18:10, lisbon dispatch waited over 4,000 ms.",
        "In each of the three minutes from 18:10, lisbon dispatch waited over 4,500 ms.",
    ),
    (
        "an upper bound in every bucket",
        "Every minute from 18:10 to 18:12 the lisbon queue stayed under 350 rides.",
        "Every minute from 18:10 to 18:12 the lisbon queue stayed under 300 rides.",
    ),
    (
        "the number of buckets",
        "In all three minutes from 18:10 lisbon had more than 290 queued rides.",
        "In all five minutes from 18:10 lisbon had more than 290 queued rides.",
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin"), CASES)
def test_a_claim_over_every_bucket_holds_in_each_row(family: str, honest: str, twin: str) -> None:
    cited: JsonObject = DISPATCH
    assert reason_of(SUPPORT, honest, cited) is None, family
    assert reason_of(SUPPORT, twin, cited) is not None, family
