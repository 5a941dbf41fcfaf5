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

from attrs import frozen

from factledger.application.statuses import StatusChange, statuses_entered
from factledger.domain.events import RecordedEvent
from factledger.domain.json_shape import record_json
from factledger.domain.json_types import JsonObject
from factledger.domain.run_events import (
    InvocationBegan,
    InvocationFailed,
    InvocationReady,
    ToolCallReserved,
)

__all__ = ["CallStatus", "CallTransition", "TimelineEntry", "run_timeline"]


class CallStatus(StrEnum):
    """Where one tool call is."""

    RESERVED = "RESERVED"
    PROJECTING = "PROJECTING"
    READY = "READY"
    ERROR = "ERROR"


@frozen
class CallTransition:
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
    evidence_status: str | None = None
    """READY: EVIDENCE_FOUND or NO_EVIDENCE."""
    truncated: bool | None = None
    """READY: whether the projection cut anything."""
    error_code: str | None = None
    """ERROR: the stable code."""

    def to_json(self) -> JsonObject:
        """The transition as JSON (metadata only)."""
        return record_json(self)


TimelineEntry = StatusChange | CallTransition
"""One entry of a run's timeline."""


def _call(recorded: RecordedEvent, names: dict[str, str]) -> CallTransition | None:
    event = recorded.event
    at, sequence = recorded.occurred_at, recorded.sequence
    match event:
        case ToolCallReserved():
            names[event.tool_call_id] = event.tool_name
            status = CallStatus.RESERVED
            return CallTransition(event.tool_call_id, event.tool_name, status, at, sequence)
        case InvocationBegan():
            names[event.tool_call_id] = event.tool_name
            status = CallStatus.PROJECTING
            return CallTransition(event.tool_call_id, event.tool_name, status, at, sequence)
        case InvocationReady():
            return CallTransition(
                event.tool_call_id,
                names.get(event.tool_call_id, ""),
                CallStatus.READY,
                at,
                sequence,
                evidence_status=event.evidence_status.value,
                truncated=event.truncated,
            )
        case InvocationFailed():
            return CallTransition(
                event.tool_call_id,
                names.get(event.tool_call_id, ""),
                CallStatus.ERROR,
                at,
                sequence,
                error_code=event.error_code.value,
            )
        case _:
            return None


def run_timeline(events: Iterable[RecordedEvent]) -> tuple[TimelineEntry, ...]:
    """Status changes (each status once) and call transitions, in event order; within one
    event, its status changes come first."""
    entries: list[TimelineEntry] = []
    seen: set[object] = set()
    names: dict[str, str] = {}
    for recorded in events:
        for status in statuses_entered(recorded.event):
            if status not in seen:
                seen.add(status)
                entries.append(StatusChange(status, recorded.occurred_at, recorded.sequence))
        transition = _call(recorded, names)
        if transition is not None:
            entries.append(transition)
    return tuple(entries)
