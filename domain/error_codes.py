"""Stable error codes the model may see. Never exception text, never backend messages."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["StoreErrorReason", "ToolBoundaryErrorCode"]


class ToolBoundaryErrorCode(StrEnum):
    """Why the ToolBoundary refused a call or why a begun call ended as ERROR (SPEC §3)."""

    RUN_NOT_ACTIVE = "RUN_NOT_ACTIVE"
    RUN_MISMATCH = "RUN_MISMATCH"
    INVALID_TOOL_CALL_ID = "INVALID_TOOL_CALL_ID"
    DUPLICATE_TOOL_CALL_ID = "DUPLICATE_TOOL_CALL_ID"
    TOOL_NOT_AUTHORIZED = "TOOL_NOT_AUTHORIZED"
    TOOL_NOT_READ_ONLY = "TOOL_NOT_READ_ONLY"
    INVALID_REQUEST = "INVALID_REQUEST"
    BUDGET_EXHAUSTED = "BUDGET_EXHAUSTED"
    REQUEST_TOO_LARGE = "REQUEST_TOO_LARGE"
    RAW_RESPONSE_TOO_LARGE = "RAW_RESPONSE_TOO_LARGE"
    PROJECTION_TOO_LARGE = "PROJECTION_TOO_LARGE"
    BACKEND_ERROR = "BACKEND_ERROR"
    BACKEND_TIMEOUT = "BACKEND_TIMEOUT"
    PROJECTION_ERROR = "PROJECTION_ERROR"
    STORE_ERROR = "STORE_ERROR"


class StoreErrorReason(StrEnum):
    """The ``reason`` beside a ``STORE_ERROR``: which kind of store failure it was.

    ``STORE_ERROR`` stays the one code a client matches; the reason tells an outage (retry
    later), a corrupted log (an operator must look) and a diverged store apart.
    """

    STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
    """Unreachable, or it never said whether it wrote: retrying may succeed."""
    LOG_CORRUPTED = "LOG_CORRUPTED"
    """The run's stored events do not decode or do not chain."""
    STORE_DIVERGED = "STORE_DIVERGED"
    """The store lost events this worker had read; the call was decided on a lost history."""
