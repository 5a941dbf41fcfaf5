"""Operational log records the application emits: ids, codes, sizes and durations only; and
the measurements the facade reports for metrics (``Telemetry``).

The application never formats or writes a log line itself: it hands one of these records to a
``CallLog``; the adapter (structlog, JSON) decides where it goes. A record has no field that
could hold content: no arguments, no raw response, no agent result, no draft, no message.
"""

from __future__ import annotations

from typing import Literal, Protocol, TypeAlias

from attrs import frozen

from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.release.events import FailureStage
from factledger.domain.release.issues import IssueCode
from factledger.domain.status import FailureCode, FallbackType, ReleaseOutcome

__all__ = [
    "SILENT",
    "CallFinished",
    "CallStatus",
    "CallLog",
    "RefusedBudget",
    "ReleaseLogged",
    "SilentCallLog",
    "Telemetry",
]

CallStatus: TypeAlias = Literal["READY", "ERROR", "REFUSED"]
"""How a tool call was answered: READY, ERROR (began, then failed) or REFUSED (never began)."""

RefusedBudget: TypeAlias = Literal["tool_call", "model_call"]
"""What a run's budget refused: a tool call or a model call."""


@frozen
class CallFinished:
    """A tool call left the boundary."""

    run_id: str
    """The run."""
    tool_call_id: str
    """The call."""
    tool_name: str | None
    """The tool, when the call got far enough to name a registered one."""
    status: CallStatus
    """READY, ERROR (began, then failed) or REFUSED (never began)."""
    code: ToolBoundaryErrorCode | None
    """The stable error code, unless READY."""
    request_bytes: int
    """Size of the arguments."""
    raw_bytes: int | None
    """Size of the raw response, when one was kept."""
    projection_bytes: int | None
    """Size of the agent result, when READY."""
    duration_ms: float
    """Time spent in the boundary."""


@frozen
class ReleaseLogged:
    """A release decision was returned."""

    run_id: str
    """The run."""
    outcome: ReleaseOutcome | None
    """What the user receives; ``None`` when the run was unknown or released before."""
    fallback_type: FallbackType | None
    """Why it was a fallback."""
    failure_stage: FailureStage | None
    """Where it stopped short of SUCCESS."""
    failure_code: FailureCode | None
    """Why it FAILED or was CANCELLED."""
    code: Literal["DECIDED", "ALREADY_RELEASED", "UNKNOWN_RUN"]
    """Decided now, released before, or an unknown run."""
    duration_ms: float
    """Time the release took."""


class CallLog(Protocol):
    """Where the boundary and the release service report what they did."""

    def call_finished(self, record: CallFinished) -> None:
        """A tool call left the boundary (never raises)."""
        ...

    def release_decided(self, record: ReleaseLogged) -> None:
        """A release returned (never raises)."""
        ...


class SilentCallLog:
    """Logs nothing (the default when nothing is wired)."""

    def call_finished(self, record: CallFinished) -> None:
        return None

    def release_decided(self, record: ReleaseLogged) -> None:
        return None


SILENT = SilentCallLog()
"""The shared silent log."""


class Telemetry(Protocol):
    """A sink of the facade's measurements (a Prometheus registry, a test's recorder): tool
    names, statuses, codes and durations, never a body, a query or an argument. Every
    transport sharing one facade reports to the same sinks."""

    def tool_call(self, tool: str, status: CallStatus, seconds: float) -> None:
        """One tool call answered: the tool's name (``(unknown)`` for a name no evidence tool
        has), the observation's status (READY, ERROR, REFUSED) and the facade's time."""
        ...

    def release(
        self, outcome: ReleaseOutcome, fallback_type: FallbackType | None, seconds: float
    ) -> None:
        """One release decided: its outcome, the fallback's type for a FALLBACK, its time."""
        ...

    def guard_violation(self, code: IssueCode) -> None:
        """One issue a guard found in a released or checked draft, by its code."""
        ...

    def budget_refusal(self, budget: RefusedBudget) -> None:
        """One request the run's budget refused: ``tool_call`` or ``model_call``."""
        ...
