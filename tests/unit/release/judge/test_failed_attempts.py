"""An act the evidence says failed ("Failed to flush the journal", "unable to open
segment") is denied as well as affirmed: a claim that the act could not be done, or did
not happen, agrees with it; the claim that it failed agrees with it as before. A denied
trouble word before an act ("no trouble flushing") affirms the act: that claim is refused.

The cited calls are of an incident of their own: a metrics agent whose journal disk is
read-only."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

JOURNAL = log_result(
    "metrics-agent",
    "read-only file system",
    [
        ("Failed to flush journal <*>: read-only file system", 38, "ERROR",
         ["Failed to flush journal wal-0007: read-only file system"]),
        ("agent unable to open segment <*> for append", 12, "ERROR",
         ["agent unable to open segment 41 for append"]),
    ],
)  # fmt: skip


@pytest.mark.parametrize(
    "honest",
    [
        "metrics-agent could not flush its journal: the file system was read-only.",
        "metrics-agent did not flush journal wal-0007.",
        "metrics-agent failed to flush its journal 38 times.",
        "The agent could not open segment 41 for append.",
        "metrics-agent logged 38 journal flush failures.",
        "The failing flushes hit journal wal-0007.",
    ],
)
def test_a_denied_act_agrees_with_a_failure_to_do_it(honest: str) -> None:
    assert reason_of(SUPPORT, honest, JOURNAL) is None


def test_an_act_said_to_go_without_trouble_is_refused() -> None:
    twin = "metrics-agent had no trouble flushing its journal."
    assert reason_of(SUPPORT, twin, JOURNAL) == "POLARITY_MISMATCH"
