"""The parts of one call through the ToolBoundary that its phases share.

A begun call (past phase 3) and what later phases learn about it; the log record a finished
call leaves; running a projector, which is foreign code. Kept apart from ``tool_boundary.py``
so that the phases read as one sequence there.
"""

from __future__ import annotations

from attrs import define
from returns.result import Failure

from factledger.application.tool_call import (
    BoundaryFailed,
    BoundaryReady,
    BoundaryRefused,
    CallHooks,
    ToolBoundaryResult,
    ToolCallRequestEnvelope,
)
from factledger.domain.error_codes import ToolBoundaryErrorCode as Code
from factledger.domain.invocation import Failed, Projecting
from factledger.domain.run_log import RunLog
from factledger.domain.tool_result import BackendFailureKind, ProjectedToolResult
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadWrite
from factledger.ports.telemetry import CallFinished
from factledger.ports.tools import ResultProjector

__all__ = ["BACKEND_CODES", "BegunCall", "finished_record", "project", "recorded_end"]

BACKEND_CODES = {
    BackendFailureKind.BACKEND_ERROR: Code.BACKEND_ERROR,
    BackendFailureKind.BACKEND_TIMEOUT: Code.BACKEND_TIMEOUT,
    BackendFailureKind.INVALID_REQUEST: Code.INVALID_REQUEST,
}
"""The code a backend's failure kind ends its call with."""


@define
class BegunCall:
    """A call past phase 3, with what later phases learn about it."""

    run_id: str
    tool_name: str
    log: RunLog
    invocation: Projecting
    hooks: CallHooks
    raw_bytes: int | None = None

    @property
    def tool_call_id(self) -> str:
        """The call's id."""
        return self.invocation.info.tool_call_id

    def body(self, part: PayloadPart, body: bytes) -> PayloadWrite:
        """A body of this call, expiring when its request body does (never later)."""
        key = PayloadKey(self.run_id, self.tool_call_id, part)
        return PayloadWrite(key, body, self.invocation.info.content_expires_at)


def recorded_end(log: RunLog, tool_call_id: str) -> BoundaryFailed | None:
    """How a call that is no longer PROJECTING was ended by someone else (e.g. closed as
    ABANDONED while its backend ran on), when it ended as ERROR."""
    invocation = log.invocation(tool_call_id)
    if isinstance(invocation, Failed):
        return BoundaryFailed(tool_call_id, invocation.error_code, invocation.reason)
    return None


def finished_record(
    envelope: ToolCallRequestEnvelope, result: ToolBoundaryResult, seconds: float
) -> CallFinished:
    """The one log record of a finished call: ids, status, code, sizes, duration."""
    ready = isinstance(result, BoundaryReady)
    return CallFinished(
        run_id=envelope.run_id,
        tool_call_id=envelope.tool_call_id,
        tool_name=envelope.tool_name,
        status="READY" if ready else "REFUSED" if isinstance(result, BoundaryRefused) else "ERROR",
        code=None if isinstance(result, BoundaryReady) else result.code,
        request_bytes=len(envelope.arguments_json.encode("utf-8")),
        raw_bytes=result.raw_bytes if isinstance(result, BoundaryReady) else None,
        projection_bytes=result.projection_bytes if isinstance(result, BoundaryReady) else None,
        duration_ms=seconds * 1000,
    )


def project(projector: ResultProjector, raw_text: str) -> ProjectedToolResult | None:
    """The projection, or None when the projector raised or failed (no text leaks)."""
    try:
        projected = projector(raw_text)
    except Exception:  # nothing of a projector's exception may reach the model
        return None
    if isinstance(projected, Failure):
        return None
    result = projected.unwrap()
    return result if isinstance(result, ProjectedToolResult) else None
