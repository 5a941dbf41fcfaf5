"""The Invocation aggregate: one tool call's lifecycle, PROJECTING → READY | ERROR.

The legal (InvocationStatus, EvidenceStatus) pairs are the only ones the types can
build: a ``Projecting`` has no evidence status, a ``Ready`` has EVIDENCE_FOUND or NO_EVIDENCE
(checked when built), a ``Failed`` always has ERROR. Nothing leaves ``Ready`` or ``Failed``.
"""

from __future__ import annotations

from datetime import datetime
from typing import TypeAlias

from attrs import field, frozen

from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.status import EvidenceStatus, InvocationStatus
from factledger.domain.tool_result import ProjectedEvidenceStatus, projected_status

__all__ = ["Failed", "Invocation", "InvocationInfo", "Projecting", "Ready"]


@frozen
class InvocationInfo:
    """What is known of a call from the moment it began."""

    tool_call_id: str
    """The call's id, unique within its run."""
    tool_name: str
    """The tool called."""
    step: int | None
    """The agent step that made the call, when known."""
    request_bytes: int
    """Size of the arguments."""
    request_digest: str
    """SHA-256 of the arguments."""
    started_at: datetime
    """When the invocation began (PROJECTING)."""
    content_expires_at: datetime
    """When its bodies leave the vault."""
    arguments_digest: str | None = None
    """SHA-256 of the canonical form of its parsed arguments, when its caller gave one."""
    scope_identity: str | None = None
    """The identity of the scope it asks for, when its caller gave one."""
    abandon_at: datetime | None = None
    """When it counts as abandoned if it is still PROJECTING."""


@frozen
class Projecting:
    """Begun, not finished: never citable."""

    info: InvocationInfo
    """The call's identity and request metadata."""

    @property
    def status(self) -> InvocationStatus:
        return InvocationStatus.PROJECTING

    @property
    def evidence_status(self) -> None:
        return None


@frozen
class Ready:
    """Finished into a citable record."""

    info: InvocationInfo
    """The call's identity and request metadata."""
    evidence_status: ProjectedEvidenceStatus = field(validator=projected_status)
    """EVIDENCE_FOUND (citable as support) or NO_EVIDENCE (citable as a scoped negative)."""
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
    completed_at: datetime
    """When it became READY."""

    @property
    def status(self) -> InvocationStatus:
        return InvocationStatus.READY


@frozen
class Failed:
    """Finished as ERROR: never citable."""

    info: InvocationInfo
    """The call's identity and request metadata."""
    error_code: ToolBoundaryErrorCode
    """Why it failed."""
    reason: str | None
    """A short, safe reason code from the tool, when it gives one."""
    raw_bytes: int | None
    """Size of the raw response when one was received."""
    completed_at: datetime
    """When it became ERROR."""

    @property
    def status(self) -> InvocationStatus:
        return InvocationStatus.ERROR

    @property
    def evidence_status(self) -> EvidenceStatus:
        return EvidenceStatus.ERROR


Invocation: TypeAlias = Projecting | Ready | Failed
"""One call, in exactly one of its three lifecycle states."""
