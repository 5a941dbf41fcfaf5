"""A time written after "first", "started", "last" or "stopped" is an edge of what the cited
call saw (a pattern's first or last instant, the earliest or latest row), not any instant in
between.

The cited calls are of an incident of their own: a print spooler that jammed."""

from __future__ import annotations

from typing import Any, cast

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

JAMS = cast(
    "JsonObject",
    {
        "tool_call_id": "l",
        "status": "READY",
        "evidence_status": "EVIDENCE_FOUND",
        "scope": {"service": "spooler", "query": "queue jammed", "start": "2026-11-28T14:00:00Z",
                  "end": "2026-11-28T15:00:00Z", "skipped": {}},
        "truncated": False,
        "matched_count": 3,
        "observed_range": {"first": "2026-11-28T14:10:05.000Z", "last": "2026-11-28T14:40:05.000Z"},
        "level_counts": {"WARN": 3},
        "pattern_count": 1,
        "patterns": [
            {"fingerprint": "f1", "template": "queue jammed on printer <*>", "count": 3,
             "first_seen": "2026-11-28T14:10:05.000Z", "last_seen": "2026-11-28T14:40:05.000Z",
             "levels": {"WARN": 3}, "examples": []},
        ],
        "events": [
            {"ts": f"2026-11-28T14:{m}:05.000Z", "level": "WARN", "pattern": "f1",
             "message": "queue jammed on printer p-3"}
            for m in ("10", "25", "40")
        ],
    },
)  # fmt: skip
PAGES: Any = sql_result(
    "SELECT minute, pages FROM spool_minutes ORDER BY minute",
    ["minute", "pages"],
    [["2026-11-28 14:10:00", 40], ["2026-11-28 14:11:00", 0], ["2026-11-28 14:12:00", 0]],
)


def test_a_first_or_last_at_its_edge_passes() -> None:
    assert reason_of(SUPPORT, "The queue first jammed at 14:10:05 UTC.", JAMS) is None
    assert reason_of(SUPPORT, "The last jam of the queue was at 14:40:05.", JAMS) is None


def test_a_first_or_last_at_an_instant_between_is_refused() -> None:
    twin = "The queue first jammed at 14:25:05 UTC."
    assert reason_of(SUPPORT, twin, JAMS) == "TIME_MISMATCH"
    twin = "The last jam of the queue was at 14:25:05."
    assert reason_of(SUPPORT, twin, JAMS) == "TIME_MISMATCH"


def test_a_time_with_no_edge_word_is_any_instant() -> None:
    assert reason_of(SUPPORT, "The queue jammed at 14:25:05 UTC.", JAMS) is None


def test_rows_give_their_earliest_and_latest_time() -> None:
    assert reason_of(SUPPORT, "The first minute was 14:10 with 40 pages printed.", PAGES) is None
    twin = "The last minute was 14:11 with 0 pages printed."
    assert reason_of(SUPPORT, twin, PAGES) == "TIME_MISMATCH"


def test_an_onset_is_an_edge_and_an_events_own_start_is_not() -> None:
    assert reason_of(SUPPORT, "The queue started jamming at 14:10:05.", JAMS) is None
    twin = "The queue started jamming at 14:25:05."
    assert reason_of(SUPPORT, twin, JAMS) == "TIME_MISMATCH"
    honest = "The spooler printed 0 pages in the minute that started at 14:11."
    assert reason_of(SUPPORT, honest, PAGES) is None


GROUPED: Any = sql_result(
    "SELECT printer, MIN(jammed_at) AS first_jam, MAX(jammed_at) AS last_jam, COUNT(*) AS jams "
    "FROM jams GROUP BY printer ORDER BY printer",
    ["printer", "first_jam", "last_jam", "jams"],
    [
        ["annex", "2026-11-28 14:02:00", "2026-11-28 14:30:00", 4],
        ["lobby", "2026-11-28 14:10:05", "2026-11-28 14:40:05", 3],
    ],
)


def test_a_grouped_row_gives_its_own_first_and_last() -> None:
    assert reason_of(SUPPORT, "The lobby printer first jammed at 14:10:05 UTC.", GROUPED) is None
    assert reason_of(SUPPORT, "The last jam on the annex printer was at 14:30.", GROUPED) is None
    twin = "The last jam on the annex printer was at 14:02."
    assert reason_of(SUPPORT, twin, GROUPED) == "TIME_MISMATCH"
    twin = "The lobby printer first jammed at 14:40:05 UTC."
    assert reason_of(SUPPORT, twin, GROUPED) == "TIME_MISMATCH"
