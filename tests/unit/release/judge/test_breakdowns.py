"""A count and the counts it is made of, written after a colon or in parentheses, add up:
"280 requests: 240 succeeded, 30 were retried and 10 failed". Each number may be a value of
the evidence and the sum still be wrong (a part left out, a total of another set); "N of M"
in parentheses is a fraction, not a breakdown.

The cited call is of an incident of its own: checkout requests grouped by outcome."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

OUTCOMES = sql_result(
    "SELECT outcome, COUNT(id) AS requests FROM checkout_requests "
    "WHERE received_at >= '2026-10-09 12:00:00' GROUP BY outcome",
    ["outcome", "requests"],
    [["succeeded", 240], ["retried", 30], ["failed", 10]],
)

HONEST = [
    pytest.param("checkout-api handled 280 requests: 240 succeeded, 30 were retried and 10 "
                 "failed.", id="parts that add up"),
    pytest.param("checkout-api failed 10 requests (10 of 280).", id="a fraction"),
]  # fmt: skip

TWINS = [
    pytest.param("checkout-api handled 280 requests: 240 succeeded and 10 failed.",
                 id="a part left out"),
    pytest.param("checkout-api handled 270 requests: 240 succeeded, 30 were retried and 10 "
                 "failed.", id="a count the parts do not make"),
]  # fmt: skip


@pytest.mark.parametrize("claim", HONEST)
def test_a_breakdown_that_adds_up_is_grounded(claim: str) -> None:
    assert reason_of(SUPPORT, claim, OUTCOMES) is None


@pytest.mark.parametrize("claim", TWINS)
def test_parts_that_do_not_make_the_count_are_refused(claim: str) -> None:
    assert reason_of(SUPPORT, claim, OUTCOMES) == "UNGROUNDED_NUMBER"
