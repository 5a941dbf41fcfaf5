"""Decide functions of the ProgressTracker (the progress protocol).

Admission runs before a call may execute. A tool_call_id already taken in the run (a call
began under it, or its refusal was recorded) is not decided again: it is a retry or a reuse,
answered from the record. Otherwise admission checks the evaluations the call carries (see
``evaluations.py`` for steps), refuses a repeated scope (checked already, or, for a call of a
step, being checked by a call still running), and refuses everything once collection has
stopped. Violations inside one step are each answered, but the step counts once toward the
violation limit. The outcome decision runs when the call finishes and is appended with its
READY or ERROR event.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from attrs import frozen

from factledger.domain.invocation import Invocation, Projecting
from factledger.domain.progress.evaluations import (
    EvaluationsRefused,
    PreviousObservation,
    check_evaluations,
)
from factledger.domain.progress.events import (
    CallOutcomeRecorded,
    CollectionStopped,
    DuplicateScopeRecorded,
    ObservationRejected,
    ProgressEvent,
    ProtocolViolationRecorded,
)
from factledger.domain.progress.policy import CallOutcome, RejectionReason, ViolationType
from factledger.domain.progress.state import ProgressState, evolve_progress
from factledger.domain.status import EvidenceStatus, StopReason

__all__ = [
    "Admitted",
    "AlreadyKnown",
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
class Proposal:
    """A call asking to be executed."""

    tool_call_id: str
    """Its id."""
    tool_name: str
    """Its tool."""
    scope_identity: str
    """The identity of its normalised scope (tool + scope)."""
    evaluations: tuple[PreviousObservation, ...] = ()
    """The evaluations it carries (none, one, or one per pending result)."""
    step: int | None = None
    """Its agent step, when the transport knows it."""
    arguments_digest: str | None = None
    """SHA-256 of the canonical form of its arguments (recorded with a refusal)."""


class RefusalKind(StrEnum):
    """Why admission refused a call (each is the observation's error_code)."""

    STOP_REQUIRED = "STOP_REQUIRED"
    PROTOCOL_VIOLATION = "PROTOCOL_VIOLATION"
    DUPLICATE_SCOPE = "DUPLICATE_SCOPE"


@frozen
class Admitted:
    """The call may execute; ``events`` (its evaluations) are appended with its reservation."""

    events: tuple[ProgressEvent, ...]
    """Events to append atomically with the call's reservation."""


@frozen
class AlreadyKnown:
    """The tool_call_id is taken in this run: nothing is decided, the record answers."""

    tool_call_id: str
    """The id."""

    @property
    def events(self) -> tuple[ProgressEvent, ...]:
        """Nothing to append."""
        return ()


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
    """For a protocol violation: the (first) call that awaits evaluation."""
    first_tool_call_id: str | None = None
    """For a duplicate scope: the call that already checked it."""
    stop_reason: StopReason | None = None
    """Set when collection is (now) stopped."""
    expected_tool_call_ids: tuple[str, ...] = ()
    """For a protocol violation: every call that awaits this call's evaluation."""
    step: int | None = None
    """The refused call's step (calls with a step are told every expected id)."""


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


def _in_flight(invocations: Mapping[str, Invocation], scope_identity: str) -> str | None:
    for invocation in invocations.values():
        if type(invocation) is Projecting and invocation.info.scope_identity == scope_identity:
            return invocation.info.tool_call_id
    return None


def decide_admission(
    state: ProgressState, invocations: Mapping[str, Invocation], proposal: Proposal
) -> Admitted | NotAdmitted | AlreadyKnown:
    """May this call execute? (Protocol check, then duplicate check.)"""
    if proposal.tool_call_id in invocations or proposal.tool_call_id in state.refusals:
        return AlreadyKnown(proposal.tool_call_id)
    if state.stop_reason is not None:
        return NotAdmitted((), RefusalKind.STOP_REQUIRED, stop_reason=state.stop_reason)
    checked = check_evaluations(
        state, invocations, proposal.tool_call_id, proposal.evaluations, proposal.step
    )
    if isinstance(checked, EvaluationsRefused):
        return _violation(state, proposal, checked)
    events: list[ProgressEvent] = list(checked.events)
    after = _apply(state, events)
    if after.consecutive_no_gain >= state.policy.no_gain_threshold:
        stop = StopReason.INFORMATION_SATURATED
        events.append(CollectionStopped(stop, proposal.tool_call_id, proposal.arguments_digest))
        return NotAdmitted(tuple(events), RefusalKind.STOP_REQUIRED, stop_reason=stop)
    first = after.checked_scopes.get(proposal.scope_identity)
    if first is None and proposal.step is not None:
        # Calls of one step run side by side: a sibling may be checking this very scope.
        first = _in_flight(invocations, proposal.scope_identity)
    if first is not None:
        return _duplicate(after, proposal, events, first)
    return Admitted(tuple(events))


def _violation(
    state: ProgressState, proposal: Proposal, refused: EvaluationsRefused
) -> NotAdmitted:
    step = proposal.step
    counted = step is None or step not in state.violation_steps
    expected = refused.expected_tool_call_ids
    first = expected[0] if expected else None
    events: list[ProgressEvent] = [
        ProtocolViolationRecorded(
            proposal.tool_call_id,
            refused.violation,
            first,
            step=step,
            counted=counted,
            expected_tool_call_ids=expected,
            arguments_digest=proposal.arguments_digest,
        )
    ]
    stop = None
    if counted and state.violations + 1 >= state.policy.protocol_violation_limit:
        stop = StopReason.PROGRESS_PROTOCOL_VIOLATED
        events.append(CollectionStopped(stop, proposal.tool_call_id))
    return NotAdmitted(
        tuple(events),
        RefusalKind.PROTOCOL_VIOLATION,
        violation=refused.violation,
        expected_tool_call_id=first,
        stop_reason=stop,
        expected_tool_call_ids=expected,
        step=step,
    )


def _duplicate(
    after: ProgressState, proposal: Proposal, events: list[ProgressEvent], first: str
) -> NotAdmitted:
    events.append(
        DuplicateScopeRecorded(
            proposal.tool_call_id,
            proposal.tool_name,
            proposal.scope_identity,
            first,
            proposal.arguments_digest,
        )
    )
    stop = None
    if after.consecutive_no_gain + 1 >= after.policy.no_gain_threshold:
        stop = StopReason.INFORMATION_SATURATED
        events.append(CollectionStopped(stop, proposal.tool_call_id))
    return NotAdmitted(
        tuple(events), RefusalKind.DUPLICATE_SCOPE, first_tool_call_id=first, stop_reason=stop
    )


def decide_outcome(state: ProgressState, call: FinishedCall) -> tuple[ProgressEvent, ...]:
    """Progress bookkeeping for a finished call (appended with its READY or ERROR event)."""
    if not call.contract_holds:
        return (
            ObservationRejected(call.tool_call_id, RejectionReason.OBSERVATION_CONTRACT_MISMATCH),
        )
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


def decide_budget_stop(
    state: ProgressState, tool_call_id: str, arguments_digest: str | None = None
) -> tuple[ProgressEvent, ...]:
    """A call refused for an exhausted budget stops collection (BUDGET_LIMIT_REACHED); the
    stop records the refused call's arguments digest, so that a retry of it is recognised."""
    if state.stop_reason is not None or tool_call_id in state.refusals:
        return ()
    return (CollectionStopped(StopReason.BUDGET_LIMIT_REACHED, tool_call_id, arguments_digest),)
