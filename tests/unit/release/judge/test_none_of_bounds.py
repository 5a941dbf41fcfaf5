""" "None of the N runs took more than X" denies a larger value, as "never went above X" does:
X is the largest value, as written; a bound under the values the evidence holds is refused.

The cited calls are of an incident of their own: nightly compaction runs of a time-series
store."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

COMPACTIONS = log_result(
    "tsdb-compactor",
    "compaction finished",
    [
        ("compaction of block <*> finished in <*>", 3, "INFO",
         ["compaction of block b-101 finished in 812.5s",
          "compaction of block b-102 finished in 840.0s",
          "compaction of block b-103 finished in 799.1s"]),
    ],
)  # fmt: skip


def test_the_largest_value_as_the_denied_bound_passes() -> None:
    honest = "None of the three tsdb-compactor compactions took more than 840 s."
    assert reason_of(SUPPORT, honest, COMPACTIONS) is None


def test_a_denied_bound_under_the_values_is_refused() -> None:
    twin = "None of the three tsdb-compactor compactions took more than 800 s."
    assert reason_of(SUPPORT, twin, COMPACTIONS) == "UNGROUNDED_NUMBER"
