"""A negative observation written as a model writes it, no broader than its search:
"never" over a search of all time or inside the window the claim writes, the searched verb
denied in another inflection ("did not skip" of "skipping job"), a connective of the query
in other words ("because of" for "due to"). A "never" broader than a windowed search, or a
verb the query did not search, is still refused.

The cited calls are of an incident of their own: a backup scheduler on a replica that
stopped taking snapshots."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import NEGATIVE, log_result, reason_of, sql_result

NO_SNAPSHOT = sql_result(
    "SELECT id, taken_at FROM snapshots WHERE replica = 'db-replica-3' AND outcome = 'succeeded'",
    ["id", "taken_at"],
    [],
)
"""No succeeded snapshot of db-replica-3, over all time."""

NO_SNAPSHOT_EARLY = sql_result(
    "SELECT id, taken_at FROM snapshots WHERE replica = 'db-replica-3' AND outcome = 'failed' "
    "AND taken_at < '2026-11-28 14:00:00'",
    ["id", "taken_at"],
    [],
)
"""No failed snapshot of db-replica-3 before 14:00."""

NO_SKIP = log_result("backup-scheduler", "skipping snapshot", [])
"""A windowed logs search for a skipped snapshot."""

NO_ABORT = log_result("db-replica-3", "aborting snapshot due to lock timeout", [])
"""A windowed logs search for an aborted snapshot."""

CASES = [
    (
        "never, of a search over all time",
        "db-replica-3 never took a succeeded snapshot.",
        "db-replica-3 never took a snapshot.",
        NO_SNAPSHOT,
    ),
    (
        "never, of a windowed search, needs the window",
        "Before 14:00 db-replica-3 never had a failed snapshot.",
        "db-replica-3 never had a failed snapshot.",
        NO_SNAPSHOT_EARLY,
    ),
    (
        "the searched verb in another inflection",
        "Between 14:00 and 15:00 backup-scheduler did not skip any snapshot.",
        "Between 14:00 and 15:00 backup-scheduler did not run any snapshot.",
        NO_SKIP,
    ),
    (
        "a connective of the query in other words",
        "Between 14:00 and 15:00 db-replica-3 did not abort any snapshot because of a lock "
        "timeout.",
        "Between 14:00 and 15:00 db-replica-3 did not abort any snapshot.",
        NO_ABORT,
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited"), CASES)
def test_a_negative_observation_in_natural_words(
    family: str, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(NEGATIVE, honest, cited) is None, family
    assert reason_of(NEGATIVE, twin, cited) is not None, family
