"""What the ToolBoundary needs from a tool: an executor and a projector.

The boundary knows nothing of any particular tool. A tool's invoker binds the typed input
into an executor (runs the backend, returns raw JSON text) and a projector (raw → bounded
``ProjectedToolResult``).
"""

from __future__ import annotations

from typing import Protocol

from returns.result import Result

from factledger.domain.tool_result import BackendFailure, ProjectedToolResult, ProjectionFailure

__all__ = ["ResultProjector", "ToolExecutor"]


class ToolExecutor(Protocol):
    """Runs the backend once; must give up by itself after ``timeout_seconds``."""

    def __call__(self, timeout_seconds: float, /) -> Result[str, BackendFailure]:
        """The backend's raw JSON text, or why there is none."""
        ...


class ResultProjector(Protocol):
    """Turns raw JSON text into the bounded result (pure: no I/O, no clock)."""

    def __call__(self, raw_json: str, /) -> Result[ProjectedToolResult, ProjectionFailure]:
        """The bounded result, or why the raw text cannot be projected."""
        ...
