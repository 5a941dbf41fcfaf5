""" "Only K of the N" citing a result of N rows holds for exactly K of them: the number the
claim says of them ("at least 4 times", "12 retries"), read in the column that holds it,
must single out K rows.

The cited calls are of an incident of their own: search shards that kept retrying bulk
writes."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

RETRIES = sql_result(
    "SELECT shard, COUNT(id) AS retries FROM bulk_retries WHERE cluster = 'search-eu' "
    "GROUP BY shard",
    ["shard", "retries"],
    [["shard-0", 12], ["shard-1", 12], ["shard-2", 3], ["shard-3", 12]],
)


def test_only_the_rows_that_hold_it_passes() -> None:
    honest = "Only one of the four shards retried fewer than 5 times."
    assert reason_of(SUPPORT, honest, RETRIES) is None
    honest = "Only 3 of the 4 shards retried 12 times."
    assert reason_of(SUPPORT, honest, RETRIES) is None


def test_only_a_part_when_more_rows_hold_it_is_refused() -> None:
    twin = "Only one of the four shards retried at least 12 times."
    assert reason_of(SUPPORT, twin, RETRIES) == "QUANTIFIER_UNSUPPORTED"
    twin = "Just one of the 4 shards retried 12 times."
    assert reason_of(SUPPORT, twin, RETRIES) == "QUANTIFIER_UNSUPPORTED"
