"""Commands to the Run and Invocation aggregates, named in the imperative.

Time (``now``) and ids are fields: the domain never reads a clock or makes an id.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from attrs import field, frozen
from attrs.validators import ge

from factledger.domain.budget import RunBudget
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.progress.policy import ProgressPolicy
from factledger.domain.run_events import DiagnosisContext, ModelCallPurpose, ToolGrant
from factledger.domain.status import FailureCode, RunState
from factledger.domain.tool_result import ProjectedEvidenceStatus

__all__ = [
    "BeginToolCall",
    "CompleteInvocation",
    "EndRun",
    "FailInvocation",
    "RecordModelUsage",
    "ReserveModelCall",
    "StartRun",
    "ToolCallRequestEnvelope",
]


@frozen
class StartRun:
    """Start a run with its budget, granted tools and diagnosis context."""

    run_id: str
    """The new run's id."""
    budget: RunBudget
    """Its limits."""
    tools: tuple[ToolGrant, ...]
    """The tools it may call."""
    context: DiagnosisContext
    """What it diagnoses."""
    now: datetime
    """The current time."""
    progress: ProgressPolicy = field(factory=ProgressPolicy)
    """The progress protocol's thresholds."""


@frozen
class ToolCallRequestEnvelope:
    """One call as a tool's invoker builds it (never as the model states it)."""

    run_id: str
    """The run the call claims to belong to."""
    tool_call_id: str
    """The model's id for the call."""
    tool_name: str
    """The tool; each invoker binds its own name."""
    arguments_json: str
    """The arguments exactly as received."""
    authorized: bool
    """Set by the invoker: the call came through a registered tool."""
    read_only: bool
    """Set by the invoker: the tool is declared read-only."""
    arguments_digest: str | None = None
    """Set by the invoker: the digest of the canonical form of the parsed arguments (a retry
    with the same digest is the same call)."""
    scope_identity: str | None = None
    """Set by the invoker: the identity of the scope the call asks for."""


@frozen
class BeginToolCall:
    """Preflight, reserve and begin one tool call (the boundary's phases 1–3)."""

    envelope: ToolCallRequestEnvelope
    """The call as its tool's invoker built it: run, id, tool, arguments and flags."""
    step: int | None
    """The agent step making the call, when known."""
    content_ttl: timedelta
    """How long the call's bodies stay in the vault."""
    now: datetime
    """The current time."""
    abandon_after: timedelta | None = None
    """How long after it begins the call counts as abandoned if still PROJECTING (its
    timeout plus a grace period); None: never by this call's own record."""


@frozen
class CompleteInvocation:
    """Reserve raw and projection bytes and mark the call READY (the boundary's phases 5 and 7)."""

    tool_call_id: str
    """The call."""
    evidence_status: ProjectedEvidenceStatus
    """As the projector decided."""
    raw_bytes: int
    """Size of the raw response."""
    raw_digest: str
    """SHA-256 of the raw response."""
    projection_bytes: int
    """Size of the canonical agent result."""
    result_digest: str
    """SHA-256 of the canonical agent result."""
    truncated: bool
    """True when the projection cut anything."""
    now: datetime
    """The current time."""


@frozen
class FailInvocation:
    """End a begun call as ERROR with a stable code."""

    tool_call_id: str
    """The call."""
    error_code: ToolBoundaryErrorCode
    """Why."""
    reason: str | None
    """A short, safe reason code from the tool, when it gives one."""
    raw_bytes: int | None
    """Size of the raw response, when one was received."""


def _terminal(_: object, __: object, value: RunState) -> None:
    if not value.is_terminal:
        raise ValueError("a run can only end in a terminal state")


@frozen
class EndRun:
    """Move the run out of RUNNING, for good."""

    state: RunState = field(validator=_terminal)
    """The terminal state."""
    failure_code: FailureCode | None
    """Why, when not SUCCESS."""


@frozen
class ReserveModelCall:
    """Reserve one metered model call."""

    purpose: ModelCallPurpose
    """What it is for."""
    step: int | None
    """The agent step, for agent turns."""
    now: datetime
    """The current time."""


@frozen
class RecordModelUsage:
    """Record the tokens a model call used."""

    purpose: ModelCallPurpose
    """What it was for."""
    prompt_tokens: int = field(validator=ge(0))
    """Prompt tokens billed."""
    completion_tokens: int = field(validator=ge(0))
    """Completion tokens billed."""
