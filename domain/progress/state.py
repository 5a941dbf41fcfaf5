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
from factledger.domain.status import StopReason

__all__ = ["ProgressState", "evolve_progress"]

_NONE: Mapping[str, str] = {}
_NO_EVALUATIONS: Mapping[str, Evaluation] = {}


@frozen
class ProgressState:
    """Where a run stands in the progress protocol."""

    policy: ProgressPolicy = field(factory=ProgressPolicy)
    """Its thresholds."""
    pending: str | None = None
    """The EVIDENCE_FOUND result awaiting the model's evaluation."""
    consecutive_no_gain: int = 0
    """NO_GAIN results in a row."""
    violations: int = 0
    """Protocol violations so far."""
    checked_scopes: Mapping[str, str] = _NONE
    """Scope identity → the call that checked it."""
    call_scopes: Mapping[str, str] = _NONE
    """tool_call_id → the identity of the scope it asked for."""
    evaluations: Mapping[str, Evaluation] = _NO_EVALUATIONS
    """The model's evaluation of each evaluated call."""
    stop_reason: StopReason | None = None
    """Set once collection stops."""
    stopped_by: str | None = None
    """The call whose outcome stopped collection, when one did."""
    rejected: frozenset[str] = frozenset()
    """Calls whose observation was rejected (OBSERVATION_CONTRACT_MISMATCH)."""

    @property
    def stopped(self) -> bool:
        """True once collection has stopped."""
        return self.stop_reason is not None


def _no_gain(state: ProgressState) -> ProgressState:
    return evolve(state, consecutive_no_gain=state.consecutive_no_gain + 1)


def evolve_progress(state: ProgressState, event: ProgressEvent) -> ProgressState:
    """Fold one progress event. Never validates."""
    match event:
        case ObservationEvaluated():
            evaluations = {**state.evaluations, event.tool_call_id: event.evaluation}
            streak = 0 if event.evaluation is Evaluation.GAINED else state.consecutive_no_gain + 1
            pending = None if state.pending == event.tool_call_id else state.pending
            return evolve(
                state, evaluations=evaluations, consecutive_no_gain=streak, pending=pending
            )
        case ProtocolViolationRecorded():
            return evolve(state, violations=state.violations + 1)
        case DuplicateScopeRecorded():
            scopes = {**state.call_scopes, event.tool_call_id: event.scope_identity}
            return evolve(_no_gain(state), call_scopes=scopes)
        case CallOutcomeRecorded():
            state = evolve(
                state, call_scopes={**state.call_scopes, event.tool_call_id: event.scope_identity}
            )
            checked = state.checked_scopes
            if event.scope_identity not in checked:
                checked = {**checked, event.scope_identity: event.tool_call_id}
            if event.outcome is CallOutcome.AWAITING_EVALUATION:
                return evolve(state, pending=event.tool_call_id, checked_scopes=checked)
            if event.outcome is CallOutcome.NO_GAIN_EMPTY:
                return evolve(_no_gain(state), checked_scopes=checked)
            return _no_gain(state)  # an ERROR does not check its scope: it may be retried
        case ObservationRejected():
            return evolve(state, rejected=state.rejected | {event.tool_call_id})
        case CollectionStopped():
            if state.stop_reason is not None:
                return state
            return evolve(state, stop_reason=event.reason, stopped_by=event.tool_call_id)
        case _:
            assert_never(event)
