"""Decide functions of the ProgressTracker (SPEC §7).

Admission runs before a call may execute: it checks the evaluation the call carries, refuses a
repeated scope, and refuses everything once collection has stopped. The outcome decision runs
when the call finishes and is appended with its READY or ERROR event.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from attrs import frozen

from factledger.domain.invocation import Invocation, Projecting
from factledger.domain.progress.events import (
    CallOutcomeRecorded,
    CollectionStopped,
    DuplicateScopeRecorded,
    ObservationEvaluated,
    ObservationRejected,
    ProgressEvent,
    ProtocolViolationRecorded,
)
from factledger.domain.progress.policy import CallOutcome, Evaluation, ViolationType
from factledger.domain.progress.state import ProgressState, evolve_progress
from factledger.domain.status import EvidenceStatus, StopReason

__all__ = [
    "Admitted",
    "FinishedCall",
    "NotAdmitted",
    "PreviousObservation",
    "Proposal",
    "RefusalKind",
    "decide_admission",
    "decide_budget_stop",
    "decide_outcome",
]


@frozen
class PreviousObservation:
    """The evaluation a call carries of the previous EVIDENCE_FOUND result."""

    tool_call_id: str
    """The evaluated call."""
    evaluation: Evaluation
    """GAINED or NO_GAIN."""


@frozen
class Proposal:
    """A call asking to be executed."""

    tool_call_id: str
    """Its id."""
    tool_name: str
    """Its tool."""
    scope_identity: str
    """The identity of its normalised scope (tool + scope)."""
    previous: PreviousObservation | None
    """The evaluation it carries."""


class RefusalKind(StrEnum):
    """Why admission refused a call (each is the observation's error_code)."""

    STOP_REQUIRED = "STOP_REQUIRED"
    PROTOCOL_VIOLATION = "PROTOCOL_VIOLATION"
    DUPLICATE_SCOPE = "DUPLICATE_SCOPE"


@frozen
class Admitted:
    """The call may execute; ``events`` (its evaluation) are appended with its reservation."""

    events: tuple[ProgressEvent, ...]
    """Events to append atomically with the call's reservation."""


@frozen
class NotAdmitted:
    """The call is refused without running; ``events`` record why."""

    events: tuple[ProgressEvent, ...]
    """Events to append (may be empty when collection had already stopped)."""
    kind: RefusalKind
    """Why."""
    violation: ViolationType | None = None
    """For a protocol violation: which."""
    expected_tool_call_id: str | None = None
    """For a protocol violation: the call that awaits evaluation."""
    first_tool_call_id: str | None = None
    """For a duplicate scope: the call that already checked it."""
    stop_reason: StopReason | None = None
    """Set when collection is (now) stopped."""


@frozen
class FinishedCall:
    """A call the boundary finished, as the progress tracker needs to know it."""

    tool_call_id: str
    """The call."""
    tool_name: str
    """Its tool."""
    scope_identity: str
    """Its normalised scope's identity."""
    evidence_status: EvidenceStatus
    """EVIDENCE_FOUND or NO_EVIDENCE for READY; ERROR for ERROR."""
    contract_holds: bool = True
    """False when the content's recomputed evidence status disagrees with the projector's."""
    budget_exhausted: bool = False
    """True when it failed because a run budget was exhausted."""


def _apply(state: ProgressState, events: list[ProgressEvent]) -> ProgressState:
    for event in events:
        state = evolve_progress(state, event)
    return state


def _finished(invocations: Mapping[str, Invocation], tool_call_id: str) -> bool:
    invocation = invocations.get(tool_call_id)
    return invocation is not None and not isinstance(invocation, Projecting)


def decide_admission(
    state: ProgressState, invocations: Mapping[str, Invocation], proposal: Proposal
) -> Admitted | NotAdmitted:
    """May this call execute? (SPEC §7 gate 3: protocol check, then duplicate check.)"""
    if state.stop_reason is not None:
        return NotAdmitted((), RefusalKind.STOP_REQUIRED, stop_reason=state.stop_reason)
    events: list[ProgressEvent] = []
    previous = proposal.previous
    violation: ViolationType | None = None
    if state.pending is not None:
        if previous is None:
            violation = ViolationType.MISSING_EVALUATION
        elif previous.tool_call_id != state.pending:
            violation = ViolationType.WRONG_OBSERVATION
        else:
            events.append(
                ObservationEvaluated(state.pending, previous.evaluation, proposal.tool_call_id)
            )
    elif previous is not None and not _finished(invocations, previous.tool_call_id):
        violation = ViolationType.UNKNOWN_OBSERVATION

    if violation is not None:
        events.append(ProtocolViolationRecorded(proposal.tool_call_id, violation, state.pending))
        stop = None
        if state.violations + 1 >= state.policy.protocol_violation_limit:
            stop = StopReason.PROGRESS_PROTOCOL_VIOLATED
            events.append(CollectionStopped(stop, proposal.tool_call_id))
        return NotAdmitted(
            tuple(events),
            RefusalKind.PROTOCOL_VIOLATION,
            violation=violation,
            expected_tool_call_id=state.pending,
            stop_reason=stop,
        )

    after = _apply(state, events)
    if after.consecutive_no_gain >= state.policy.no_gain_threshold:
        events.append(CollectionStopped(StopReason.INFORMATION_SATURATED, proposal.tool_call_id))
        return NotAdmitted(
            tuple(events), RefusalKind.STOP_REQUIRED, stop_reason=StopReason.INFORMATION_SATURATED
        )

    first = after.checked_scopes.get(proposal.scope_identity)
    if first is not None:
        events.append(
            DuplicateScopeRecorded(
                proposal.tool_call_id, proposal.tool_name, proposal.scope_identity, first
            )
        )
        stop = None
        if after.consecutive_no_gain + 1 >= state.policy.no_gain_threshold:
            stop = StopReason.INFORMATION_SATURATED
            events.append(CollectionStopped(stop, proposal.tool_call_id))
        return NotAdmitted(
            tuple(events),
            RefusalKind.DUPLICATE_SCOPE,
            first_tool_call_id=first,
            stop_reason=stop,
        )
    return Admitted(tuple(events))


def decide_outcome(state: ProgressState, call: FinishedCall) -> tuple[ProgressEvent, ...]:
    """Progress bookkeeping for a finished call (appended with its READY or ERROR event)."""
    if not call.contract_holds:
        return (ObservationRejected(call.tool_call_id, "OBSERVATION_CONTRACT_MISMATCH"),)
    match call.evidence_status:
        case EvidenceStatus.EVIDENCE_FOUND:
            outcome = CallOutcome.AWAITING_EVALUATION
        case EvidenceStatus.NO_EVIDENCE:
            outcome = CallOutcome.NO_GAIN_EMPTY
        case EvidenceStatus.ERROR:
            outcome = CallOutcome.NO_GAIN_ERROR
    events: list[ProgressEvent] = [
        CallOutcomeRecorded(call.tool_call_id, call.tool_name, call.scope_identity, outcome)
    ]
    if state.stop_reason is None:
        if call.budget_exhausted:
            events.append(CollectionStopped(StopReason.BUDGET_LIMIT_REACHED, call.tool_call_id))
        elif _apply(state, events).consecutive_no_gain >= state.policy.no_gain_threshold:
            events.append(CollectionStopped(StopReason.INFORMATION_SATURATED, call.tool_call_id))
    return tuple(events)


def decide_budget_stop(state: ProgressState, tool_call_id: str) -> tuple[ProgressEvent, ...]:
    """A call refused for an exhausted budget stops collection (BUDGET_LIMIT_REACHED)."""
    if state.stop_reason is not None:
        return ()
    return (CollectionStopped(StopReason.BUDGET_LIMIT_REACHED, tool_call_id),)
