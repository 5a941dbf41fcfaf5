"""Three readings of what a cited SQL result says beyond its cells.

* A flag the query keeps off (``WHERE reachable = 0``) denies the flag's words of every row
  returned: "no reachable server" agrees with it.
* A spelled count after "all" ("all three hosts") is a count the evidence shows: as many
  rows, a value, or as many names written in the claim.
* Numbers computed from rows: the total of a column over the rows a word of the claim picks
  out, a multiplier between two numbers the claim writes, and a percentage beside the
  numbers the claim writes (computed from them, never from two other small values).

The cited calls are of an incident of their own: replicas of a search index that lost their
leader after a firewall change."""

from __future__ import annotations

from typing import cast

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

UNREACHABLE = sql_result(
    "SELECT replica, COUNT(id) AS probes, MIN(probed_at) AS first_at FROM leader_probes "
    "WHERE leader_reachable = 0 GROUP BY replica",
    ["replica", "probes", "first_at"],
    [["search-replica-2", 14, "2026-11-28 14:05:00"]],
)
"""Probes of one replica that found no reachable leader (the scope names the columns read,
the flag among them, as the SQL tool's does)."""
cast("JsonObject", UNREACHABLE["scope"])["columns"] = [
    "leader_probes.replica",
    "leader_probes.id",
    "leader_probes.probed_at",
    "leader_probes.leader_reachable",
]

REASONS = sql_result(
    "SELECT replica, reason, COUNT(id) AS refusals FROM query_refusals "
    "WHERE refused_at >= '2026-11-28 14:00:00' GROUP BY replica, reason",
    ["replica", "reason", "refusals"],
    [
        ["search-replica-1", "STALE_INDEX", 8],
        ["search-replica-2", "STALE_INDEX", 3],
        ["search-replica-2", "NO_LEADER", 412],
        ["search-replica-3", "STALE_INDEX", 6],
    ],
)
"""Refused queries per replica and reason."""

TRAFFIC = sql_result(
    "SELECT replica, SUM(queries) AS queries, SUM(refused) AS refused FROM query_minutes "
    "WHERE minute >= '2026-11-28 14:05:00' GROUP BY replica",
    ["replica", "queries", "refused"],
    [["search-replica-1", 830, 8], ["search-replica-2", 845, 415], ["search-replica-3", 822, 6]],
)
"""Queries and refusals per replica."""

CASES = [
    (
        "a flag kept off denies its words",
        "search-replica-2 had no reachable leader in 14 probes from 14:05.",
        "search-replica-2 had no reachable leader in 41 probes from 14:05.",
        UNREACHABLE,
    ),
    (
        "a count after all: as many rows",
        "All three replicas served traffic after 14:05, search-replica-2 refusing 415 queries.",
        "All four replicas served traffic after 14:05, search-replica-2 refusing 415 queries.",
        TRAFFIC,
    ),
    (
        "a count after all: none shown",
        "search-replica-2 had no reachable leader in 14 probes from 14:05.",
        "All three replicas had no reachable leader in 14 probes from 14:05.",
        UNREACHABLE,
    ),
    (
        "the total over the rows a word picks out",
        "STALE_INDEX refusals were rare: 17 across the three replicas.",
        "STALE_INDEX refusals were rare: 71 across the three replicas.",
        REASONS,
    ),
    (
        "a multiplier between two numbers written",
        "search-replica-2 refused roughly 52 times as many queries as search-replica-1 (415 "
        "against 8).",
        "search-replica-2 refused roughly 25 times as many queries as search-replica-1 (415 "
        "against 8).",
        TRAFFIC,
    ),
    (
        "a percentage beside the numbers written",
        "search-replica-2 refused 415 of its 845 queries, about 49%.",
        "search-replica-2 refused 415 of its 845 queries, about 75%.",
        TRAFFIC,
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited"), CASES)
def test_what_a_sql_result_says_beyond_its_cells(
    family: str, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(SUPPORT, honest, cited) is None, family
    assert reason_of(SUPPORT, twin, cited) is not None, family


def test_a_plain_count_is_no_percentage_of_two_values() -> None:
    few = sql_result(
        "SELECT COUNT(id) AS probes, SUM(failed) AS failed FROM probes",
        ["probes", "failed"],
        [[5, 2]],
    )
    assert reason_of(SUPPORT, "2 of the 5 probes failed.", few) is None
    assert reason_of(SUPPORT, "40 of the 5 probes failed.", few) is not None
