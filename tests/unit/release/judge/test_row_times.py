"""A number held by one dated row is dated by it: "by 14:35 the queue was back to 12 jobs"
when the row with 12 is sampled at 14:35; "by 14:31" is refused.

The cited call is of an incident of its own: a job queue draining after a worker restart."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

DEPTH = sql_result(
    "SELECT sampled_at, depth FROM queue_samples WHERE queue = 'exports' ORDER BY sampled_at",
    ["sampled_at", "depth"],
    [["2026-11-28 14:30:00", 900], ["2026-11-28 14:33:00", 240], ["2026-11-28 14:35:00", 12]],
)


def test_the_rows_time_or_a_later_bound_passes() -> None:
    assert reason_of(SUPPORT, "At 14:33 the exports queue held 240 jobs.", DEPTH) is None
    assert reason_of(SUPPORT, "By 14:35 the exports queue was down to 12 jobs.", DEPTH) is None


def test_another_time_for_the_rows_number_is_refused() -> None:
    twin = "At 14:30 the exports queue held 240 jobs."
    assert reason_of(SUPPORT, twin, DEPTH) == "TIME_MISMATCH"
    twin = "By 14:33 the exports queue was down to 12 jobs."
    assert reason_of(SUPPORT, twin, DEPTH) == "TIME_MISMATCH"


def test_a_number_in_another_clause_is_not_dated_by_the_time() -> None:
    honest = "At 14:35 the exports queue held 12 jobs, down from the 240 of 14:33."
    assert reason_of(SUPPORT, honest, DEPTH) is None
    honest = "At 14:35 the exports queue held 12 jobs, far below the 900 of before."
    assert reason_of(SUPPORT, honest, DEPTH) is None


def test_times_listed_with_their_numbers_are_left_to_the_time_rules() -> None:
    honest = "The exports queue held 900, 240 and 12 jobs at 14:30, 14:33 and 14:35."
    assert reason_of(SUPPORT, honest, DEPTH) is None
