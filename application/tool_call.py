"""What the ToolBoundary takes in and gives back for one call."""

from __future__ import annotations

from typing import TypeAlias

from attrs import frozen

from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.tool_result import ProjectedToolResult

__all__ = [
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
