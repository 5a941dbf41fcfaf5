"""Stable error codes the model may see. Never exception text, never backend messages."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["StoreErrorReason", "ToolBoundaryErrorCode"]


class ToolBoundaryErrorCode(StrEnum):
    """Why the ToolBoundary refused a call or why a begun call ended as ERROR."""

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
    # Retries and abandoned calls.
    ABANDONED = "ABANDONED"
    """The call was still PROJECTING past its timeout plus the grace period (its worker died
    or lost the store): closed as ERROR by a later command on the run."""
    CALL_IN_PROGRESS = "CALL_IN_PROGRESS"
    """A retry of a call still running elsewhere, which did not finish while the retry
    waited: nothing ran; send the same call again later for its result."""
    RESULT_EXPIRED = "RESULT_EXPIRED"
    """A retry of a call whose result has left the vault: nothing ran, nothing is shown."""
    RESULT_UNAVAILABLE = "RESULT_UNAVAILABLE"
    """A retry of a call whose stored result cannot be trusted (``reason`` TAMPERED or
    MISSING): nothing ran, nothing is shown."""


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
