"""The ProgressTracker's state, folded from progress events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import assert_never

from attrs import evolve, field, frozen

from factledger.domain.progress.events import (
    CallOutcomeRecorded,
    CollectionStopped,
    DuplicateScopeRecorded,
    ObservationEvaluated,
    ObservationRejected,
    ProgressEvent,
    ProtocolViolationRecorded,
)
from factledger.domain.progress.policy import CallOutcome, Evaluation, ProgressPolicy
from factledger.domain.progress.refusals import (
    DuplicateRefused,
    RecordedRefusal,
    StopRefused,
    ViolationRefused,
)
from factledger.domain.status import StopReason

__all__ = ["ProgressState", "evolve_progress"]

_NONE: Mapping[str, str] = {}
_NO_EVALUATIONS: Mapping[str, Evaluation] = {}
_NO_REFUSALS: Mapping[str, RecordedRefusal] = {}


@frozen
class ProgressState:
    """Where a run stands in the progress protocol."""

    policy: ProgressPolicy = field(factory=ProgressPolicy)
    """Its thresholds."""
    pending: tuple[str, ...] = ()
    """EVIDENCE_FOUND results awaiting the model's evaluation, in the order they finished."""
    consecutive_no_gain: int = 0
    """NO_GAIN results in a row."""
    violations: int = 0
    """Protocol violations counted toward the limit so far."""
    checked_scopes: Mapping[str, str] = _NONE
    """Scope identity → the call that checked it."""
    call_scopes: Mapping[str, str] = _NONE
    """tool_call_id → the identity of the scope it asked for."""
    evaluations: Mapping[str, Evaluation] = _NO_EVALUATIONS
    """The model's evaluation of each evaluated call."""
    stop_reason: StopReason | None = None
    """Set once collection stops."""
    stopped_by: str | None = None
    """The call whose outcome or refusal stopped collection, when one did."""
    rejected: frozenset[str] = frozenset()
    """Calls whose observation was rejected (OBSERVATION_CONTRACT_MISMATCH)."""
    violation_steps: frozenset[int] = frozenset()
    """Agent steps that already counted a violation (a batch counts once)."""
    refusals: Mapping[str, RecordedRefusal] = _NO_REFUSALS
    """Refused calls whose refusal is recorded, by tool_call_id (their ids are taken)."""

    @property
    def stopped(self) -> bool:
        """True once collection has stopped."""
        return self.stop_reason is not None


def _copy(
    state: ProgressState,
    *,
    pending: tuple[str, ...] | None = None,
    consecutive_no_gain: int | None = None,
    violations: int | None = None,
    checked_scopes: Mapping[str, str] | None = None,
    call_scopes: Mapping[str, str] | None = None,
    evaluations: Mapping[str, Evaluation] | None = None,
    rejected: frozenset[str] | None = None,
    violation_steps: frozenset[int] | None = None,
    refusals: Mapping[str, RecordedRefusal] | None = None,
) -> ProgressState:
    # A direct constructor call: folding is the hot path and attrs.evolve introspects.
    return ProgressState(
        state.policy,
        state.pending if pending is None else pending,
        state.consecutive_no_gain if consecutive_no_gain is None else consecutive_no_gain,
        state.violations if violations is None else violations,
        state.checked_scopes if checked_scopes is None else checked_scopes,
        state.call_scopes if call_scopes is None else call_scopes,
        state.evaluations if evaluations is None else evaluations,
        state.stop_reason,
        state.stopped_by,
        state.rejected if rejected is None else rejected,
        state.violation_steps if violation_steps is None else violation_steps,
        state.refusals if refusals is None else refusals,
    )


def _refused(state: ProgressState, tool_call_id: str, refusal: RecordedRefusal) -> ProgressState:
    return _copy(state, refusals={**state.refusals, tool_call_id: refusal})


def _evaluated(state: ProgressState, event: ObservationEvaluated) -> ProgressState:
    evaluations = {**state.evaluations, event.tool_call_id: event.evaluation}
    streak = 0 if event.evaluation is Evaluation.GAINED else state.consecutive_no_gain + 1
    pending = tuple(item for item in state.pending if item != event.tool_call_id)
    return _copy(state, evaluations=evaluations, consecutive_no_gain=streak, pending=pending)


def _violated(state: ProgressState, event: ProtocolViolationRecorded) -> ProgressState:
    steps = state.violation_steps
    if event.counted and event.step is not None:
        steps = steps | {event.step}
    state = _copy(state, violations=state.violations + int(event.counted), violation_steps=steps)
    if event.arguments_digest is None:
        return state
    expected = event.expected_tool_call_ids or (
        () if event.expected_tool_call_id is None else (event.expected_tool_call_id,)
    )
    refusal = ViolationRefused(event.arguments_digest, event.violation, expected, event.step)
    return _refused(state, event.tool_call_id, refusal)


def _duplicated(state: ProgressState, event: DuplicateScopeRecorded) -> ProgressState:
    state = _copy(
        state,
        consecutive_no_gain=state.consecutive_no_gain + 1,
        call_scopes={**state.call_scopes, event.tool_call_id: event.scope_identity},
    )
    if event.arguments_digest is None:
        return state
    refusal = DuplicateRefused(event.arguments_digest, event.first_tool_call_id)
    return _refused(state, event.tool_call_id, refusal)


def _outcome(state: ProgressState, event: CallOutcomeRecorded) -> ProgressState:
    scopes = {**state.call_scopes, event.tool_call_id: event.scope_identity}
    checked = state.checked_scopes
    checks = event.outcome is not CallOutcome.NO_GAIN_ERROR
    if checks and event.scope_identity not in checked:
        # An ERROR does not check its scope: it may be retried.
        checked = {**checked, event.scope_identity: event.tool_call_id}
    if event.outcome is CallOutcome.AWAITING_EVALUATION:
        pending = state.pending
        if event.tool_call_id not in pending:
            pending = (*pending, event.tool_call_id)
        return _copy(state, pending=pending, checked_scopes=checked, call_scopes=scopes)
    return _copy(
        state,
        consecutive_no_gain=state.consecutive_no_gain + 1,
        checked_scopes=checked,
        call_scopes=scopes,
    )


def _stopped(state: ProgressState, event: CollectionStopped) -> ProgressState:
    if state.stop_reason is not None:
        return state
    state = evolve(state, stop_reason=event.reason, stopped_by=event.tool_call_id)
    if event.arguments_digest is None or event.tool_call_id is None:
        return state
    if event.tool_call_id in state.refusals:
        return state  # the refusal itself is already recorded (a violation)
    return _refused(state, event.tool_call_id, StopRefused(event.arguments_digest, event.reason))


def evolve_progress(state: ProgressState, event: ProgressEvent) -> ProgressState:
    """Fold one progress event. Never validates."""
    match event:
        case ObservationEvaluated():
            return _evaluated(state, event)
        case ProtocolViolationRecorded():
            return _violated(state, event)
        case DuplicateScopeRecorded():
            return _duplicated(state, event)
        case CallOutcomeRecorded():
            return _outcome(state, event)
        case ObservationRejected():
            return _copy(state, rejected=state.rejected | {event.tool_call_id})
        case CollectionStopped():
            return _stopped(state, event)
        case _:
            assert_never(event)
