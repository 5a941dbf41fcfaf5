"""ApplicationStatus as transports show it: progress, not outcome, folded from the event log.

``statuses_entered`` is the one place that says which event moves a run to which status; the
status timeline here and the audit rows (``projections/audit_fold.py``) both use it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Final

from attrs import frozen

from factledger.domain.events import Event, RecordedEvent
from factledger.domain.json_shape import JsonRecord
from factledger.domain.release.events import (
    EvidenceGuardInitialChecked,
    ReleaseDecided,
    SemanticDecided,
)
from factledger.domain.run_events import RunStarted, ToolCallReserved
from factledger.domain.status import ApplicationStatus

__all__ = ["StatusChange", "new_status_changes", "status_timeline", "statuses_entered"]

_ENTERED: Final[dict[type, tuple[ApplicationStatus, ...]]] = {
    RunStarted: (ApplicationStatus.RECEIVED, ApplicationStatus.DIAGNOSIS_RUNNING),
    ToolCallReserved: (ApplicationStatus.COLLECTING_EVIDENCE,),
    EvidenceGuardInitialChecked: (ApplicationStatus.SAFETY_VALIDATING,),
    SemanticDecided: (ApplicationStatus.RELEASING,),
    ReleaseDecided: (ApplicationStatus.RELEASING, ApplicationStatus.DONE),
}


def statuses_entered(event: Event) -> tuple[ApplicationStatus, ...]:
    """The statuses an event moves its run into, in order (most events move none; a draft
    check does not either: the run goes on collecting)."""
    return _ENTERED.get(type(event), ())


@frozen
class StatusChange(JsonRecord):
    """The run entered ``status`` at ``at`` (with the sequence of the event that said so)."""

    status: ApplicationStatus
    """The new status."""
    at: datetime
    """When."""
    sequence: int
    """The event that moved it."""


def new_status_changes(recorded: RecordedEvent, seen: set[ApplicationStatus]) -> list[StatusChange]:
    """The changes ``recorded`` makes into statuses not in ``seen``, in order; each is added
    to ``seen``, so that a status appears once however many events enter it."""
    changes: list[StatusChange] = []
    for status in statuses_entered(recorded.event):
        if status not in seen:
            seen.add(status)
            changes.append(StatusChange(status, recorded.occurred_at, recorded.sequence))
    return changes


def status_timeline(events: Iterable[RecordedEvent]) -> tuple[StatusChange, ...]:
    """Every status change, in order; each status appears at most once."""
    changes: list[StatusChange] = []
    seen: set[ApplicationStatus] = set()
    for recorded in events:
        changes.extend(new_status_changes(recorded, seen))
    return tuple(changes)
