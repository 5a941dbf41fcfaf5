"""What the ToolBoundary takes in and gives back for one call."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from attrs import frozen

from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.events import Event
from factledger.domain.run_commands import ToolCallRequestEnvelope
from factledger.domain.run_log import RunLog
from factledger.domain.tool_result import ProjectedToolResult

__all__ = [
    "NO_HOOKS",
    "CallHooks",
    "FinishedInBoundary",
    "BoundaryFailed",
    "BoundaryReady",
    "BoundaryRefused",
    "RunContext",
    "ToolBoundaryResult",
    "ToolCallRequestEnvelope",
]


@frozen
class RunContext:
    """The run a call is made in, as the caller's session knows it."""

    run_id: str
    """The run."""
    step: int | None = None
    """The agent step (turn) making the call, when known."""


@frozen
class BoundaryRefused:
    """Nothing began (preflight or reservation refused): the backend did not run."""

    tool_call_id: str
    """The call's id as given."""
    code: ToolBoundaryErrorCode
    """Why."""


@frozen
class BoundaryFailed:
    """The call began (or the store failed) and ended as ERROR."""

    tool_call_id: str
    """The call."""
    code: ToolBoundaryErrorCode
    """Why."""
    reason: str | None = None
    """A short, safe reason code from the tool, when it gives one."""


@frozen
class BoundaryReady:
    """The call finished READY: its canonical record is complete and citable."""

    tool_call_id: str
    """The call."""
    tool_name: str
    """The tool."""
    result: ProjectedToolResult
    """The bounded agent result and its evidence status."""
    request_bytes: int
    """Size of the arguments."""
    raw_bytes: int
    """Size of the raw response."""
    projection_bytes: int
    """Size of the canonical agent result."""


ToolBoundaryResult: TypeAlias = BoundaryRefused | BoundaryFailed | BoundaryReady
"""What one call through the boundary gave."""


@frozen
class FinishedInBoundary:
    """How a begun call ended, as the boundary's caller learns it before the end is appended."""

    tool_call_id: str
    """The call."""
    result: ProjectedToolResult | None
    """The projection, when the call ends READY."""
    error_code: ToolBoundaryErrorCode | None
    """The code, when the call ends as ERROR."""


def _nothing_on_begin(_: RunLog) -> tuple[Event, ...]:
    return ()


def _nothing_on_finish(_: RunLog, __: FinishedInBoundary) -> tuple[Event, ...]:
    return ()


@frozen
class CallHooks:
    """Events a caller appends atomically with the boundary's own: the interceptor's progress
    bookkeeping rides on the reservation and on the READY or ERROR append, so a call and its
    bookkeeping are never separated. Both are pure functions of the log they are given and are
    asked again if an append has to be decided again."""

    with_begin: Callable[[RunLog], tuple[Event, ...]] = _nothing_on_begin
    """Events appended before the reservation (e.g. the evaluation the call carries)."""
    with_finish: Callable[[RunLog, FinishedInBoundary], tuple[Event, ...]] = _nothing_on_finish
    """Events appended after the READY or ERROR event."""


NO_HOOKS = CallHooks()
"""No extra events."""
