"""Which pending results a call must evaluate, and whether the evaluations it carries do.

Steps: the calls of one agent step (one model turn's tool calls) never need to evaluate each
other; a call must evaluate every pending result that is not of its own step. A call without
a step is a step of its own (the sequential protocol). A call naming a step before the latest
one a call of the run began in is refused (STALE_STEP): steps only move forward.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeAlias

from attrs import frozen

from factledger.domain.invocation import Invocation, Projecting
from factledger.domain.progress.events import ObservationEvaluated
from factledger.domain.progress.policy import Evaluation, ViolationType
from factledger.domain.progress.state import ProgressState

__all__ = [
    "EvaluationCheck",
    "EvaluationsAccepted",
    "EvaluationsRefused",
    "PreviousObservation",
    "check_evaluations",
]


@frozen
class PreviousObservation:
    """The model's evaluation of one EVIDENCE_FOUND result."""

    tool_call_id: str
    """The evaluated call."""
    evaluation: Evaluation
    """GAINED or NO_GAIN."""


@frozen
class EvaluationsAccepted:
    """The call evaluates everything it owes; ``events`` record the new evaluations."""

    events: tuple[ObservationEvaluated, ...]
    """One per pending result it evaluates (re-stated evaluations add nothing)."""


@frozen
class EvaluationsRefused:
    """The call breaks the protocol."""

    violation: ViolationType
    """How."""
    expected_tool_call_ids: tuple[str, ...]
    """The pending results it should have evaluated (and did not)."""


EvaluationCheck: TypeAlias = EvaluationsAccepted | EvaluationsRefused
"""What checking a call's evaluations gives."""


def _step_of(invocations: Mapping[str, Invocation], tool_call_id: str) -> int | None:
    invocation = invocations.get(tool_call_id)
    return None if invocation is None else invocation.info.step


def latest_step(invocations: Mapping[str, Invocation]) -> int | None:
    """The latest step any call of the run began in (None when no call had a step)."""
    steps = [item.info.step for item in invocations.values() if item.info.step is not None]
    return max(steps) if steps else None


def _finished(invocations: Mapping[str, Invocation], tool_call_id: str) -> bool:
    invocation = invocations.get(tool_call_id)
    return invocation is not None and not isinstance(invocation, Projecting)


def owed(
    state: ProgressState, invocations: Mapping[str, Invocation], step: int | None
) -> tuple[str, ...]:
    """The pending results a call of ``step`` must evaluate: every one not of its step."""
    if step is None:
        return state.pending
    return tuple(p for p in state.pending if _step_of(invocations, p) != step)


def check_evaluations(
    state: ProgressState,
    invocations: Mapping[str, Invocation],
    tool_call_id: str,
    evaluations: tuple[PreviousObservation, ...],
    step: int | None,
) -> EvaluationCheck:
    """Does the call carry every evaluation it owes, and only evaluations of real results?"""
    if step is not None:
        latest = latest_step(invocations)
        if latest is not None and step < latest:
            return EvaluationsRefused(ViolationType.STALE_STEP, ())
    required = owed(state, invocations, step)
    if required == tuple(item.tool_call_id for item in evaluations):
        # The common case: exactly what awaits, in order (each is pending, hence finished).
        return _accepted(evaluations, tool_call_id)
    given = {item.tool_call_id for item in evaluations}
    missing = tuple(item for item in required if item not in given)
    if missing:
        # Evaluating something, but none of what awaits, is the wrong observation; evaluating
        # nothing, or only part of what awaits, leaves evaluations missing.
        wrong = bool(given) and not any(item in given for item in required)
        violation = ViolationType.WRONG_OBSERVATION if wrong else ViolationType.MISSING_EVALUATION
        return EvaluationsRefused(violation, missing)
    if any(not _finished(invocations, item.tool_call_id) for item in evaluations):
        return EvaluationsRefused(ViolationType.UNKNOWN_OBSERVATION, ())
    return _accepted(
        (item for item in evaluations if item.tool_call_id in state.pending), tool_call_id
    )


def _accepted(evaluations: Iterable[PreviousObservation], tool_call_id: str) -> EvaluationsAccepted:
    """The evaluations ``tool_call_id`` carries, each recorded as an event."""
    return EvaluationsAccepted(
        tuple(
            ObservationEvaluated(item.tool_call_id, item.evaluation, tool_call_id)
            for item in evaluations
        )
    )
