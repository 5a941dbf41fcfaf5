"""ApplicationStatus as transports show it: progress, not outcome, folded from the event log."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from attrs import frozen

from factledger.domain.events import RecordedEvent
from factledger.domain.json_shape import record_json
from factledger.domain.json_types import JsonObject
from factledger.domain.release.events import (
    EvidenceGuardInitialChecked,
    ReleaseDecided,
    SemanticDecided,
)
from factledger.domain.run_events import RunStarted, ToolCallReserved
from factledger.domain.status import ApplicationStatus

__all__ = ["StatusChange", "status_timeline"]


@frozen
class StatusChange:
    """The run entered ``status`` at ``at`` (with the sequence of the event that said so)."""

    status: ApplicationStatus
    """The new status."""
    at: datetime
    """When."""
    sequence: int
    """The event that moved it."""

    def to_json(self) -> JsonObject:
        """``{"status", "at", "sequence"}``."""
        return record_json(self)


def status_timeline(events: Iterable[RecordedEvent]) -> tuple[StatusChange, ...]:
    """Every status change, in order; each status appears at most once."""
    changes: list[StatusChange] = []
    seen: set[ApplicationStatus] = set()

    def enter(status: ApplicationStatus, recorded: RecordedEvent) -> None:
        if status not in seen:
            seen.add(status)
            changes.append(StatusChange(status, recorded.occurred_at, recorded.sequence))

    for recorded in events:
        event = recorded.event
        if isinstance(event, RunStarted):
            enter(ApplicationStatus.RECEIVED, recorded)
            enter(ApplicationStatus.DIAGNOSIS_RUNNING, recorded)
        elif isinstance(event, ToolCallReserved):
            enter(ApplicationStatus.COLLECTING_EVIDENCE, recorded)
        elif isinstance(event, EvidenceGuardInitialChecked):
            enter(ApplicationStatus.SAFETY_VALIDATING, recorded)
        elif isinstance(event, SemanticDecided):
            enter(ApplicationStatus.RELEASING, recorded)
        elif isinstance(event, ReleaseDecided):
            enter(ApplicationStatus.RELEASING, recorded)
            enter(ApplicationStatus.DONE, recorded)
    return tuple(changes)
