"""What the facade raises when it cannot serve a request: one exception, stable codes.

The same rule holds for every operation and every transport: a run id no run has is
``UNKNOWN_RUN`` (a tool call, a release, a view, a cancel, recorded usage alike; HTTP 404, an MCP
tool error), while a run that exists but no longer runs answers a tool call with a REFUSED
``RUN_NOT_ACTIVE`` observation, because that is something the model must read.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["HarnessError", "HarnessErrorCode"]


class HarnessErrorCode(StrEnum):
    """Why the facade could not serve a request."""

    UNKNOWN_RUN = "UNKNOWN_RUN"
    """No run with this id exists."""
    UNKNOWN_TOOL_CALL = "UNKNOWN_TOOL_CALL"
    """No call with this id in this run."""
    STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
    """The event store, the vault or the audit database could not be used."""
    INVALID_INPUT = "INVALID_INPUT"
    """The request itself is wrong (a window without a time zone, a taken run id...)."""
    ALREADY_RELEASED = "ALREADY_RELEASED"
    """The run was released and its recorded result has expired."""
    RUN_NOT_ACTIVE = "RUN_NOT_ACTIVE"
    """The run is not in a state for this (e.g. asking for the result before the release)."""
    NO_EVIDENCE_TOOLS = "NO_EVIDENCE_TOOLS"
    """The harness has no evidence tool: none is configured and none was registered."""
    NOT_CONFIGURED = "NOT_CONFIGURED"
    """What was asked for needs a part that is not configured (the audit, a composition
    root)."""


class HarnessError(Exception):
    """A request the harness cannot serve; ``code`` is stable, the message holds no content."""

    def __init__(self, code: HarnessErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        """Why (stable, for programs)."""
        self.message = message
        """A sentence for people."""
