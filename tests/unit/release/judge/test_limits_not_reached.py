"""A query's ``LIMIT`` is a term of the query only where it capped the rows: a limit the
result never reached caps nothing, so a count that happens to equal it ("200 of the 370
payments failed" of a ``LIMIT 200`` query of four rows) is grounded as any count is, and a
result cut at its limit still holds the limit as a term, never as a count.

The cited calls are of an incident of their own: card payments refused by one acquirer."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

BY_REGION = sql_result(
    "SELECT region, status, COUNT(id) AS payments FROM payments "
    "WHERE created_at >= '2026-11-28 09:00:00' AND created_at < '2026-11-28 10:00:00' "
    "GROUP BY region, status ORDER BY region, status LIMIT 200",
    ["region", "status", "payments"],
    [["eu", "failed", 120], ["eu", "paid", 100], ["us", "failed", 80], ["us", "paid", 70]],
)
CUT = sql_result(
    "SELECT id, status FROM payments WHERE status = 'failed' ORDER BY id LIMIT 3",
    ["id", "status"],
    [[11, "failed"], [12, "failed"], [13, "failed"]],
)


@pytest.mark.parametrize(
    "honest",
    [
        "Between 09:00 and 10:00 UTC 200 of the 370 payments failed, about 54%.",
        "Between 09:00 and 10:00 UTC 200 payments failed.",
    ],
)
def test_a_count_equal_to_a_limit_never_reached_passes(honest: str) -> None:
    assert reason_of(SUPPORT, honest, BY_REGION) is None


@pytest.mark.parametrize(
    "twin",
    [
        "Between 09:00 and 10:00 UTC 200 of the 370 payments failed, about 5%.",
        "Between 09:00 and 10:00 UTC 210 payments failed.",
    ],
)
def test_a_changed_count_or_share_is_refused(twin: str) -> None:
    assert reason_of(SUPPORT, twin, BY_REGION) is not None


def test_a_limit_that_cut_the_rows_is_no_count() -> None:
    assert reason_of(SUPPORT, "3 payments failed.", CUT) == "FILTER_MISMATCH"
