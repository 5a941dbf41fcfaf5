"""A "no" before a comparison bounds a number, it does not deny the things counted: "no job
took longer than 97 seconds" says the longest took 97 seconds, and agrees with a result that
lists jobs. A "not" before a verb still denies the verb ("do not raise it higher than 60").
A spelled quantity after "about" ("about nine seconds") is held as "about 9 seconds" is.

The cited calls are of an incident of their own: an image-resizing queue whose jobs slowed
down after a library upgrade."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import (
    SUPPORT,
    knowledge_result,
    reason_of,
    sql_result,
)

LONGEST = sql_result(
    "SELECT COUNT(id) AS jobs, MAX(duration_ms) AS max_duration_ms FROM resize_jobs "
    "WHERE started_at < '2026-11-28 14:00:00'",
    ["jobs", "max_duration_ms"],
    [[380, 9060]],
)
"""The jobs before the upgrade and the longest of them."""

RUNBOOK = knowledge_result(
    "resize queue workers",
    [("resize-worker: scaling", "Do not raise the worker count higher than 40: the image "
      "store accepts 50 connections in total.")],
)  # fmt: skip

CASES = [
    (
        "no job took more than: the longest",
        "Before 14:00 no resize job took more than 9,060 ms.",
        "Before 14:00 no resize job took more than 9,060 s.",
        LONGEST,
    ),
    (
        "a spelled approximation is held",
        "Before 14:00 no resize job took longer than 9,060 ms, about nine seconds.",
        "Before 14:00 no resize job took longer than 9,060 ms, about nine minutes.",
        LONGEST,
    ),
    (
        "a not before a verb still denies it",
        "The runbook says not to raise the worker count higher than 40.",
        "The runbook says to raise the worker count higher than 40.",
        RUNBOOK,
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited"), CASES)
def test_a_no_before_a_comparison_bounds_the_number(
    family: str, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(SUPPORT, honest, cited) is None, family
    assert reason_of(SUPPORT, twin, cited) is not None, family
