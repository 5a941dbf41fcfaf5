"""What every record of one tool call says, whoever keeps it.

The canonical view (what transports show of a call) and the audit's invocation row both start
from ``CallRecord``; a field every record of a call carries is added here, once.
"""

from __future__ import annotations

from datetime import datetime

from attrs import frozen

from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.status import EvidenceStatus, InvocationStatus

__all__ = ["CallRecord"]


@frozen
class CallRecord:
    """A tool call's metadata: never a body."""

    run_id: str
    """The run."""
    tool_call_id: str
    """The call's id, unique within the run."""
    tool_name: str
    """The tool called."""
    step: int | None
    """The agent step (turn) that made the call, when known."""
    status: InvocationStatus
    """PROJECTING, READY or ERROR."""
    evidence_status: EvidenceStatus | None
    """EVIDENCE_FOUND or NO_EVIDENCE when READY, ERROR when ERROR, None while PROJECTING."""
    error_code: ToolBoundaryErrorCode | None
    """Why it failed, for ERROR."""
    started_at: datetime
    """When it began (PROJECTING)."""
    completed_at: datetime | None
    """When it became READY or ERROR."""
    request_bytes: int
    """Size of the arguments."""
    raw_bytes: int | None
    """Size of the raw response, when one was received."""
    projection_bytes: int | None
    """Size of the agent result, when READY."""
