"""Events of the Run and Invocation aggregates, named in the past tense.

Events carry metadata and SHA-256 digests only: never a request, raw response or agent-result
body (those live in the payload vault). Their time is the ``occurred_at`` of the
recorded envelope, so no event repeats it.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import ClassVar, TypeAlias

from attrs import field, frozen

from factledger.domain.budget import RunBudget
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.model_failure import ModelFailureReason
from factledger.domain.progress.policy import ProgressPolicy
from factledger.domain.status import FailureCode, RunState
from factledger.domain.tool_result import ProjectedEvidenceStatus

__all__ = [
    "DiagnosisContext",
    "InvocationBegan",
    "InvocationFailed",
    "InvocationReady",
    "ModelCallFailed",
    "ModelCallPurpose",
    "ModelCallReserved",
    "ModelUsageRecorded",
    "RunEnded",
    "RunEvent",
    "RunStarted",
    "ToolCallReserved",
    "ToolGrant",
]


@frozen
class ToolGrant:
    """A tool this run may call, and whether its registration declares it read-only."""

    name: str
    """The tool name as the model calls it."""
    read_only: bool
    """The registration's declaration; a tool that is not read-only is refused."""


@frozen
class DiagnosisContext:
    """What the run diagnoses: a service and a time window (both required to diagnose)."""

    service: str | None = None
    """The service under investigation."""
    start: datetime | None = None
    """Start of the time window under investigation."""
    end: datetime | None = None
    """End of the time window under investigation."""
    question_digest: str | None = None
    """SHA-256 of the question text (the text itself is content and stays out of events)."""
    question_bytes: int = 0
    """Size of the question text in UTF-8 bytes."""
    owner: str | None = None
    """The digest of the principal that started the run (a transport's caller, never a token
    or session id itself); None: nobody in particular (and every run recorded before owners
    were)."""

    @property
    def is_complete(self) -> bool:
        """True when a service and a time window are both given."""
        return self.service is not None and self.start is not None and self.end is not None


@frozen
class RunStarted:
    """A run began, with its budget, the tools it may call and what it diagnoses."""

    TYPE: ClassVar[str] = "RUN_STARTED"
    run_id: str
    """The run's id."""
    budget: RunBudget
    """The run's limits."""
    tools: tuple[ToolGrant, ...]
    """The tools this run may call."""
    context: DiagnosisContext
    """The service and window under diagnosis."""
    deadline: datetime
    """When the run times out."""
    progress: ProgressPolicy = field(factory=ProgressPolicy)
    """The progress protocol's thresholds for this run."""


@frozen
class ToolCallReserved:
    """One tool call and its request bytes were reserved in the run budget (phase 2)."""

    TYPE: ClassVar[str] = "TOOL_CALL_RESERVED"
    tool_call_id: str
    """The call's id, unique within the run."""
    tool_name: str
    """The tool called."""
    request_bytes: int
    """Size of the arguments in UTF-8 bytes."""


@frozen
class InvocationBegan:
    """The canonical record of the call exists, PROJECTING (phase 3)."""

    TYPE: ClassVar[str] = "INVOCATION_BEGAN"
    tool_call_id: str
    """The call's id."""
    tool_name: str
    """The tool called."""
    step: int | None
    """The agent step (turn) that made the call, when known."""
    request_bytes: int
    """Size of the arguments in UTF-8 bytes."""
    request_digest: str
    """SHA-256 of the arguments."""
    content_expires_at: datetime
    """When the call's bodies leave the vault; set once, never renewed."""
    arguments_digest: str | None = None
    """SHA-256 of the canonical form of the parsed arguments (with the tool's name): a retry
    with the same digest is the same call. None when the caller gave none."""
    scope_identity: str | None = None
    """The identity of the scope the call asks for, as its tool computed it (duplicate
    detection while the call runs). None when the caller gave none."""
    abandon_at: datetime | None = None
    """When the call, still PROJECTING, counts as abandoned (its timeout plus a grace period
    after it began). None in events recorded before the field existed."""


@frozen
class InvocationReady:
    """The call finished into a citable record: raw and projection bytes reserved, READY."""

    TYPE: ClassVar[str] = "INVOCATION_READY"
    tool_call_id: str
    """The call's id."""
    evidence_status: ProjectedEvidenceStatus
    """EVIDENCE_FOUND or NO_EVIDENCE, as the projector decided it."""
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


@frozen
class InvocationFailed:
    """The call ended as ERROR with a stable code."""

    TYPE: ClassVar[str] = "INVOCATION_FAILED"
    tool_call_id: str
    """The call's id."""
    error_code: ToolBoundaryErrorCode
    """Why it failed."""
    reason: str | None
    """A short, safe reason code from the tool, when it gives one."""
    raw_bytes: int | None
    """Size of the raw response when one was received."""


class ModelCallPurpose(StrEnum):
    """What a metered model call was for."""

    AGENT_TURN = "AGENT_TURN"
    EVIDENCE_REPAIR = "EVIDENCE_REPAIR"
    SEMANTIC_JUDGE = "SEMANTIC_JUDGE"


@frozen
class ModelCallReserved:
    """One model call was reserved in the run budget."""

    TYPE: ClassVar[str] = "MODEL_CALL_RESERVED"
    purpose: ModelCallPurpose
    """What the call is for."""
    step: int | None
    """The agent step, when the call is an agent turn."""


@frozen
class ModelCallFailed:
    """MODEL_CALL_FAILED: a reserved model call gave no usable answer (an outage, a refusal,
    an unreadable reply). Codes only: never the endpoint's message."""

    TYPE: ClassVar[str] = "MODEL_CALL_FAILED"
    purpose: ModelCallPurpose
    """What the call was for."""
    step: int | None
    """The agent step, when the call was an agent turn."""
    reason: ModelFailureReason
    """Why it failed."""


@frozen
class ModelUsageRecorded:
    """Tokens a model call used, for the token budget and cost reconciliation."""

    TYPE: ClassVar[str] = "MODEL_USAGE_RECORDED"
    purpose: ModelCallPurpose
    """What the call was for."""
    prompt_tokens: int
    """Prompt tokens billed."""
    completion_tokens: int
    """Completion tokens billed."""


@frozen
class RunEnded:
    """The run left RUNNING, once and for good."""

    TYPE: ClassVar[str] = "RUN_ENDED"
    state: RunState
    """The terminal state."""
    failure_code: FailureCode | None
    """Why, when the run did not end in SUCCESS."""


RunEvent: TypeAlias = (
    RunStarted
    | ToolCallReserved
    | InvocationBegan
    | InvocationReady
    | InvocationFailed
    | ModelCallReserved
    | ModelCallFailed
    | ModelUsageRecorded
    | RunEnded
)
"""Every event of the Run and Invocation aggregates."""
