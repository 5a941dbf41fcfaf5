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


class _Keep:
    """Marks a field ``_copy`` leaves as it is (``None`` is a value for ``pending``)."""


def _copy(
    state: ProgressState,
    *,
    pending: str | type[_Keep] | None = _Keep,
    consecutive_no_gain: int | None = None,
    violations: int | None = None,
    checked_scopes: Mapping[str, str] | None = None,
    call_scopes: Mapping[str, str] | None = None,
    evaluations: Mapping[str, Evaluation] | None = None,
    rejected: frozenset[str] | None = None,
) -> ProgressState:
    # A direct constructor call: folding is the hot path and attrs.evolve introspects.
    return ProgressState(
        state.policy,
        state.pending if pending is _Keep else pending,  # type: ignore[arg-type]
        state.consecutive_no_gain if consecutive_no_gain is None else consecutive_no_gain,
        state.violations if violations is None else violations,
        state.checked_scopes if checked_scopes is None else checked_scopes,
        state.call_scopes if call_scopes is None else call_scopes,
        state.evaluations if evaluations is None else evaluations,
        state.stop_reason,
        state.stopped_by,
        state.rejected if rejected is None else rejected,
    )


def evolve_progress(state: ProgressState, event: ProgressEvent) -> ProgressState:
    """Fold one progress event. Never validates."""
    match event:
        case ObservationEvaluated():
            evaluations = {**state.evaluations, event.tool_call_id: event.evaluation}
            streak = 0 if event.evaluation is Evaluation.GAINED else state.consecutive_no_gain + 1
            pending = None if state.pending == event.tool_call_id else state.pending
            return _copy(
                state, evaluations=evaluations, consecutive_no_gain=streak, pending=pending
            )
        case ProtocolViolationRecorded():
            return _copy(state, pending=_Keep, violations=state.violations + 1)
        case DuplicateScopeRecorded():
            return _copy(
                state,
                pending=_Keep,
                consecutive_no_gain=state.consecutive_no_gain + 1,
                call_scopes={**state.call_scopes, event.tool_call_id: event.scope_identity},
            )
        case CallOutcomeRecorded():
            scopes = {**state.call_scopes, event.tool_call_id: event.scope_identity}
            checked = state.checked_scopes
            checks = event.outcome is not CallOutcome.NO_GAIN_ERROR
            if checks and event.scope_identity not in checked:
                # An ERROR does not check its scope: it may be retried.
                checked = {**checked, event.scope_identity: event.tool_call_id}
            if event.outcome is CallOutcome.AWAITING_EVALUATION:
                return _copy(
                    state, pending=event.tool_call_id, checked_scopes=checked, call_scopes=scopes
                )
            return _copy(
                state,
                pending=_Keep,
                consecutive_no_gain=state.consecutive_no_gain + 1,
                checked_scopes=checked,
                call_scopes=scopes,
            )
        case ObservationRejected():
            return _copy(state, pending=_Keep, rejected=state.rejected | {event.tool_call_id})
        case CollectionStopped():
            if state.stop_reason is not None:
                return state
            return evolve(state, stop_reason=event.reason, stopped_by=event.tool_call_id)
        case _:
            assert_never(event)
