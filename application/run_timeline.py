"""A run's progress as transports stream it: the status changes and every tool call's
transitions, in the order of the events that made them.

A call is RESERVED when its budget is reserved, PROJECTING once its canonical record exists,
then READY or ERROR. A transition carries the call's id, its tool, the new status and, once
finished, its evidence status, truncation or error code: safe metadata only, never a body,
an argument or a query. The timeline only grows as the log grows, so a position in it is a
stable resume point.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from enum import StrEnum

from attrs import evolve, frozen

from factledger.application.statuses import StatusChange, new_status_changes
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.events import RecordedEvent
from factledger.domain.json_shape import JsonRecord
from factledger.domain.run_events import (
    InvocationBegan,
    InvocationFailed,
    InvocationReady,
    ToolCallReserved,
)
from factledger.domain.status import ApplicationStatus
from factledger.domain.tool_result import ProjectedEvidenceStatus

__all__ = ["CallStatus", "CallTransition", "TimelineEntry", "run_timeline"]


class CallStatus(StrEnum):
    """Where one tool call is."""

    RESERVED = "RESERVED"
    PROJECTING = "PROJECTING"
    READY = "READY"
    ERROR = "ERROR"


@frozen
class CallTransition(JsonRecord):
    """One tool call moved to ``status`` at ``at`` (the event ``sequence`` said so)."""

    tool_call_id: str
    """The call."""
    tool_name: str
    """Its tool."""
    status: CallStatus
    """The new status."""
    at: datetime
    """When."""
    sequence: int
    """The event that moved it."""
    evidence_status: ProjectedEvidenceStatus | None = None
    """READY: EVIDENCE_FOUND or NO_EVIDENCE."""
    truncated: bool | None = None
    """READY: whether the projection cut anything."""
    error_code: ToolBoundaryErrorCode | None = None
    """ERROR: the stable code."""


TimelineEntry = StatusChange | CallTransition
"""One entry of a run's timeline."""


def _call(recorded: RecordedEvent, names: dict[str, str]) -> CallTransition | None:
    event = recorded.event
    match event:
        case ToolCallReserved() | InvocationBegan():
            names[event.tool_call_id] = event.tool_name
            began = isinstance(event, InvocationBegan)
            status = CallStatus.PROJECTING if began else CallStatus.RESERVED
            return _moved(recorded, event.tool_call_id, names, status)
        case InvocationReady():
            ready = _moved(recorded, event.tool_call_id, names, CallStatus.READY)
            return evolve(ready, evidence_status=event.evidence_status, truncated=event.truncated)
        case InvocationFailed():
            failed = _moved(recorded, event.tool_call_id, names, CallStatus.ERROR)
            return evolve(failed, error_code=event.error_code)
        case _:
            return None


def _moved(
    recorded: RecordedEvent, tool_call_id: str, names: dict[str, str], status: CallStatus
) -> CallTransition:
    name = names.get(tool_call_id, "")
    return CallTransition(tool_call_id, name, status, recorded.occurred_at, recorded.sequence)


def run_timeline(events: Iterable[RecordedEvent]) -> tuple[TimelineEntry, ...]:
    """Status changes (each status once) and call transitions, in event order; within one
    event, its status changes come first."""
    entries: list[TimelineEntry] = []
    seen: set[ApplicationStatus] = set()
    names: dict[str, str] = {}
    for recorded in events:
        entries.extend(new_status_changes(recorded, seen))
        transition = _call(recorded, names)
        if transition is not None:
            entries.append(transition)
    return tuple(entries)
