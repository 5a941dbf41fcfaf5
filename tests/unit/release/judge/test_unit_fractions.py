"""A fraction of a unit of time in words ("a quarter of an hour") is a duration, compared
with the cited call's durations like digits with a unit.

The cited call is of an incident of its own: a runbook for a stuck deploy pipeline."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, knowledge_result, reason_of

RUNBOOK = knowledge_result(
    "deploy pipeline stuck",
    [("deploy pipeline stuck", "If the pipeline is still stuck after 30 minutes, roll back.")],
)


def test_the_fraction_that_is_the_duration_passes() -> None:
    honest = "The runbook says to roll back if the pipeline is still stuck after half an hour."
    assert reason_of(SUPPORT, honest, RUNBOOK) is None


def test_a_fraction_of_another_unit_is_refused() -> None:
    twin = "The runbook says to roll back if the pipeline is still stuck after half a day."
    assert reason_of(SUPPORT, twin, RUNBOOK) == "UNIT_MISMATCH"
    twin = (
        "The runbook says to roll back if the pipeline is still stuck after a quarter of an hour."
    )
    assert reason_of(SUPPORT, twin, RUNBOOK) == "UNIT_MISMATCH"
