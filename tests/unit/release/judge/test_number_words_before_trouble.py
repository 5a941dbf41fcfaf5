"""A word of number or frequency right before a trouble word ("a *single* error", "one
*lone* error", "*occasional* errors") says how many, not what kind: it is not a kind of
trouble the evidence must name, as "disk" of "disk error" is. A kind the evidence does not
name, or a specific trouble word it does not hold, is still refused.

Known gap: "a single error" is read as "one error" is, its count not checked against the
cited column (both pass over a row holding 7 errors).

The cited call is of an incident of its own: a search API's errors before a deploy."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

BEFORE = sql_result(
    "SELECT SUM(requests) AS requests, SUM(errors_5xx) AS errors FROM request_minutes "
    "WHERE service = 'search-api' AND minute < '2026-10-05 11:00:00'",
    ["requests", "errors"],
    [[2410, 1]],
)

HONEST = [
    pytest.param("Before 11:00 search-api served 2,410 requests with a single error.", id="single"),
    pytest.param("Before 11:00 search-api had one lone error in 2,410 requests.", id="lone"),
    pytest.param("Before 11:00 search-api served 2,410 requests with only occasional errors.",
                 id="occasional"),
]  # fmt: skip

TWINS = [
    pytest.param("Before 11:00 search-api served 2,410 requests with a single timeout.",
                 id="a specific word not held"),
    pytest.param("Before 11:00 search-api served 2,410 requests with a single disk error.",
                 id="a kind not named"),
    pytest.param("Before 11:00 search-api served 2,410 requests with a single network error.",
                 id="another kind not named"),
]  # fmt: skip


@pytest.mark.parametrize("claim", HONEST)
def test_a_number_word_is_no_kind_of_trouble(claim: str) -> None:
    assert reason_of(SUPPORT, claim, BEFORE) is None


@pytest.mark.parametrize("claim", TWINS)
def test_a_kind_or_word_the_evidence_does_not_hold_is_refused(claim: str) -> None:
    assert reason_of(SUPPORT, claim, BEFORE) == "UNGROUNDED_TERMS"
