"""Values of one row (``row_binding``): a statement naming cells of several columns names one
row. Incidents of their own: a ticketing backend's releases, a CDN's status table, a queue's
consumer offsets."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

RELEASES = sql_result(
    "SELECT service, version, released_by, started_at, finished_at FROM releases "
    "WHERE started_at >= '2026-10-03 08:00:00' ORDER BY started_at",
    ["service", "version", "released_by", "started_at", "finished_at"],
    [
        ["ticket-api", "3.9.0", "okafor", "2026-10-03 08:12:05", "2026-10-03 08:15:40"],
        ["seat-map", "1.4.2", "delacroix", "2026-10-03 08:31:00", "2026-10-03 08:33:20"],
        ["ticket-api", "3.8.7", "nakamura", "2026-10-03 09:02:10", "2026-10-03 09:04:55"],
    ],
)
EDGE_STATUS = sql_result(
    "SELECT pop, status, COUNT(*) AS responses FROM edge_requests "
    "WHERE at >= '2026-10-03 12:00:00' AND at < '2026-10-03 13:00:00' GROUP BY pop, status",
    ["pop", "status", "responses"],
    [["fra1", 200, 18211], ["fra1", 502, 77], ["ams2", 200, 20490], ["ams2", 504, 12]],
)
OFFSETS = sql_result(
    "SELECT consumer, partition_id, lag FROM consumer_offsets WHERE topic = 'orders'",
    ["consumer", "partition_id", "lag"],
    [["invoicer", 0, 4], ["invoicer", 1, 3810], ["mailer", 0, 2], ["mailer", 1, 5]],
)

HONEST: list[tuple[str, str, JsonObject]] = [
    ("person, service and version of one row",
     "okafor released ticket-api 3.9.0 between 08:12 and 08:15:40 UTC.", RELEASES),
    ("a row's start and end times", "seat-map 1.4.2 rolled out from 8:31 am to 8:33 am.", RELEASES),
    ("two rows, two statements",
     "ticket-api went to 3.9.0 at 08:12 and nakamura rolled it back to 3.8.7 at 09:02.",
     RELEASES),
    ("two values of one column speak of several rows",
     "ticket-api was released by okafor, then by nakamura.", RELEASES),
    ("a count and a status of one row", "fra1 answered 77 requests with 502.", EDGE_STATUS),
    ("statuses of two rows joined by while",
     "fra1 returned 77 502s while ams2 returned 12 504s.", EDGE_STATUS),
    ("a total is not a cell",
     "fra1 answered 18288 requests in all, 77 of them with 502.", EDGE_STATUS),
    ("consumer and lag of one row", "invoicer lagged by 3810 messages on orders.", OFFSETS),
]  # fmt: skip

TWINS: list[tuple[str, str, JsonObject]] = [
    ("another row's person",
     "delacroix released ticket-api 3.9.0 between 08:12 and 08:15:40 UTC.", RELEASES),
    ("another row's version", "okafor released ticket-api 3.8.7 at 08:12.", RELEASES),
    ("another row's time", "seat-map 1.4.2 rolled out from 9:02 am to 9:04 am.", RELEASES),
    ("another row's service", "nakamura rolled seat-map back to 3.8.7.", RELEASES),
    ("count of another status", "fra1 answered 77 requests with 504.", EDGE_STATUS),
    ("count of another PoP", "ams2 returned 77 502 responses.", EDGE_STATUS),
    ("lag of another consumer", "mailer lagged by 3810 messages on orders.", OFFSETS),
]  # fmt: skip


@pytest.mark.parametrize(("case", "claim", "cited"), HONEST, ids=[h[0] for h in HONEST])
def test_values_of_one_row_are_grounded(case: str, claim: str, cited: JsonObject) -> None:
    assert reason_of(SUPPORT, claim, cited) is None, case


@pytest.mark.parametrize(("case", "claim", "cited"), TWINS, ids=[t[0] for t in TWINS])
def test_values_of_two_rows_named_as_one_are_refused(
    case: str, claim: str, cited: JsonObject
) -> None:
    assert reason_of(SUPPORT, claim, cited) is not None, case
