"""Why a run refused a command: a closed union of values, never an exception."""

from __future__ import annotations

from typing import TypeAlias, assert_never

from attrs import frozen

from factledger.domain.budget import BudgetName
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.status import RunState

__all__ = [
    "AlreadyStarted",
    "BudgetExhausted",
    "DeadlinePassed",
    "DuplicateToolCallId",
    "InvalidRequest",
    "InvalidRunId",
    "InvalidToolCallId",
    "InvocationNotProjecting",
    "RequestTooLarge",
    "RunError",
    "RunMismatch",
    "RunNotActive",
    "RunNotStarted",
    "ToolNotAuthorized",
    "ToolNotReadOnly",
    "boundary_code",
]


@frozen
class RunNotStarted:
    """No run with this id has started."""

    run_id: str
    """The run asked for."""


@frozen
class AlreadyStarted:
    """A run with this id already exists."""

    run_id: str
    """The run asked for."""


@frozen
class InvalidRunId:
    """A run id outside ``[A-Za-z0-9_.-]{1,64}``."""


@frozen
class RunNotActive:
    """The run is no longer RUNNING (or never was)."""

    state: RunState
    """Its current state."""


@frozen
class DeadlinePassed:
    """The run is still RUNNING but its deadline has passed: it must time out."""


@frozen
class RunMismatch:
    """The envelope names another run than the one the call is made in."""


@frozen
class InvalidToolCallId:
    """A tool_call_id outside ``[A-Za-z0-9_.:-]{1,128}``."""


@frozen
class DuplicateToolCallId:
    """The tool_call_id was already used in this run."""

    tool_call_id: str
    """The repeated id."""


@frozen
class ToolNotAuthorized:
    """The tool is not granted to this run, or the envelope is not authorized."""

    tool_name: str
    """The tool asked for."""


@frozen
class ToolNotReadOnly:
    """The tool or the envelope does not declare the call read-only."""

    tool_name: str
    """The tool asked for."""


@frozen
class InvalidRequest:
    """The arguments are not exactly one JSON value."""


@frozen
class RequestTooLarge:
    """The arguments alone exceed what any call of this run may carry."""

    request_bytes: int
    """Their size."""


@frozen
class BudgetExhausted:
    """A run-wide budget counter has no room for this reservation."""

    budget: BudgetName
    """The counter that is full."""


@frozen
class InvocationNotProjecting:
    """A completion or failure for a call that is unknown or already finished."""

    tool_call_id: str
    """The call."""


RunError: TypeAlias = (
    RunNotStarted
    | AlreadyStarted
    | InvalidRunId
    | RunNotActive
    | DeadlinePassed
    | RunMismatch
    | InvalidToolCallId
    | DuplicateToolCallId
    | ToolNotAuthorized
    | ToolNotReadOnly
    | InvalidRequest
    | RequestTooLarge
    | BudgetExhausted
    | InvocationNotProjecting
)
"""Every reason a run refuses a command."""


def boundary_code(error: RunError) -> ToolBoundaryErrorCode:
    """The stable code a refusal is reported with."""
    match error:
        case RunNotStarted() | RunNotActive() | DeadlinePassed() | InvocationNotProjecting():
            return ToolBoundaryErrorCode.RUN_NOT_ACTIVE
        case AlreadyStarted() | InvalidRunId() | RunMismatch():
            return ToolBoundaryErrorCode.RUN_MISMATCH
        case InvalidToolCallId():
            return ToolBoundaryErrorCode.INVALID_TOOL_CALL_ID
        case DuplicateToolCallId():
            return ToolBoundaryErrorCode.DUPLICATE_TOOL_CALL_ID
        case ToolNotAuthorized():
            return ToolBoundaryErrorCode.TOOL_NOT_AUTHORIZED
        case ToolNotReadOnly():
            return ToolBoundaryErrorCode.TOOL_NOT_READ_ONLY
        case InvalidRequest():
            return ToolBoundaryErrorCode.INVALID_REQUEST
        case RequestTooLarge():
            return ToolBoundaryErrorCode.REQUEST_TOO_LARGE
        case BudgetExhausted():
            return ToolBoundaryErrorCode.BUDGET_EXHAUSTED
        case _:
            assert_never(error)
