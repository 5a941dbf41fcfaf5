"""Events of the ProgressTracker, in the run's stream beside the Run and Invocation events.

They carry ids, codes and a scope *identity* (a SHA-256 of the normalised scope), never the
scope's text.
"""

from __future__ import annotations

from typing import ClassVar, TypeAlias

from attrs import frozen

from factledger.domain.progress.policy import (
    CallOutcome,
    Evaluation,
    RejectionReason,
    ViolationType,
)
from factledger.domain.status import StopReason

__all__ = [
    "CallOutcomeRecorded",
    "CollectionStopped",
    "DuplicateScopeRecorded",
    "ObservationEvaluated",
    "ObservationRejected",
    "ProgressEvent",
    "ProtocolViolationRecorded",
]


@frozen
class ObservationEvaluated:
    """The model evaluated a result that awaited evaluation."""

    TYPE: ClassVar[str] = "OBSERVATION_EVALUATED"
    tool_call_id: str
    """The evaluated call."""
    evaluation: Evaluation
    """GAINED or NO_GAIN."""
    by_tool_call_id: str
    """The call that carried the evaluation."""


@frozen
class ProtocolViolationRecorded:
    """A call broke the protocol and was not executed."""

    TYPE: ClassVar[str] = "PROTOCOL_VIOLATION_RECORDED"
    tool_call_id: str
    """The offending call."""
    violation: ViolationType
    """How."""
    expected_tool_call_id: str | None
    """The (first) call awaiting this call's evaluation, if any."""
    step: int | None = None
    """The agent step of the offending call, when known."""
    counted: bool = True
    """False for a further violation in a step that already counted one: a batch counts at
    most once toward the violation limit."""
    expected_tool_call_ids: tuple[str, ...] = ()
    """Every call awaiting this call's evaluation (set for calls with a step)."""
    arguments_digest: str | None = None
    """SHA-256 of the canonical form of the refused call's arguments: a retry is recognised
    by it (None in events recorded before the field existed)."""


@frozen
class DuplicateScopeRecorded:
    """A call repeated an already-checked scope and was not executed (counts as NO_GAIN)."""

    TYPE: ClassVar[str] = "DUPLICATE_SCOPE_RECORDED"
    tool_call_id: str
    """The repeated call."""
    tool_name: str
    """Its tool."""
    scope_identity: str
    """The normalised scope's identity."""
    first_tool_call_id: str
    """The call that already checked this scope (or is checking it)."""
    arguments_digest: str | None = None
    """SHA-256 of the canonical form of the refused call's arguments: a retry is recognised
    by it (None in events recorded before the field existed)."""


@frozen
class CallOutcomeRecorded:
    """A call finished and its result was accepted by the control view."""

    TYPE: ClassVar[str] = "CALL_OUTCOME_RECORDED"
    tool_call_id: str
    """The call."""
    tool_name: str
    """Its tool."""
    scope_identity: str
    """The normalised scope's identity."""
    outcome: CallOutcome
    """What it means for progress."""


@frozen
class ObservationRejected:
    """The evidence status the projector declared disagrees with the content: the result is
    not shown to the model and does not count for progress."""

    TYPE: ClassVar[str] = "OBSERVATION_REJECTED"
    tool_call_id: str
    """The call."""
    reason: RejectionReason
    """Why it was not shown (the declared status and the content disagree)."""


@frozen
class CollectionStopped:
    """Evidence collection stopped in a controlled way; later calls are refused."""

    TYPE: ClassVar[str] = "COLLECTION_STOPPED"
    reason: StopReason
    """Why."""
    tool_call_id: str | None
    """The call whose outcome or refusal stopped collection, when one did."""
    arguments_digest: str | None = None
    """Set when the stop came with the refusal of ``tool_call_id`` (nothing of it began):
    the digest of its arguments, by which a retry of it is recognised."""


ProgressEvent: TypeAlias = (
    ObservationEvaluated
    | ProtocolViolationRecorded
    | DuplicateScopeRecorded
    | CallOutcomeRecorded
    | ObservationRejected
    | CollectionStopped
)
"""Every event of the ProgressTracker."""
