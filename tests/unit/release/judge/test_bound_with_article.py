"""A time bounded with "the" between ("after the 14:32 deploy") faces the cited query's time
filter like a bare one: the other side of the filter is a filter mismatch.

The cited call is of an incident of its own: a photo-upload service after a deploy."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

BEFORE_DEPLOY = sql_result(
    "SELECT MAX(duration_ms) AS max_duration_ms FROM uploads "
    "WHERE started_at < '2026-11-28 14:32:00'",
    ["max_duration_ms"],
    [[900]],
)


def test_the_side_of_the_filter_passes() -> None:
    honest = "Before the 14:32 deploy the slowest upload took 900 ms."
    assert reason_of(SUPPORT, honest, BEFORE_DEPLOY) is None


def test_the_other_side_of_the_filter_is_refused() -> None:
    twin = "After the 14:32 deploy the slowest upload took 900 ms."
    assert reason_of(SUPPORT, twin, BEFORE_DEPLOY) == "FILTER_MISMATCH"
    twin = "Since the 14:32 deploy the slowest upload took 900 ms."
    assert reason_of(SUPPORT, twin, BEFORE_DEPLOY) == "FILTER_MISMATCH"
