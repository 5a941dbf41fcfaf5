""" "Against" before a number compares two figures ("7 errors against 2 the hour before"):
it denies nothing, so the words after it keep the polarity the evidence gives them. An
"against" before words still denies ("the config was validated against no schema").

The cited calls are of an incident of their own: a search indexer whose batches slowed."""

from __future__ import annotations

from factledger.domain.release.judge.words import words
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

SLOW = sql_result(
    "SELECT AVG(duration_ms) AS avg_ms, SUM(errors) AS errors FROM index_batches "
    "WHERE shard = 'shard-a'",
    ["avg_ms", "errors"],
    [[880.0, 31]],
)
FAST = sql_result(
    "SELECT AVG(duration_ms) AS avg_ms, SUM(errors) AS errors FROM index_batches "
    "WHERE shard = 'shard-b'",
    ["avg_ms", "errors"],
    [[12.5, 2]],
)


def test_a_number_after_against_is_not_denied() -> None:
    read = {w.raw: w.negated for w in words("31 errors on shard-a against 2 errors on shard-b")}
    assert read["errors"] is False
    assert {w.raw: w.negated for w in words("validated against no schema")}["schema"] is True


def test_a_comparison_with_against_passes() -> None:
    honest = "shard-a batches averaged 880 ms, against 12.5 ms for shard-b batches."
    assert reason_of(SUPPORT, honest, SLOW, FAST) is None
    honest = "shard-a had 31 errors against 2 errors on shard-b."
    assert reason_of(SUPPORT, honest, SLOW, FAST) is None
