"""Health records of the workers (``factledger worker``; ADR 0024): what each one last said
about itself, for ``/healthz`` and operators. Ids, counts, codes and times only."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Protocol

from attrs import frozen
from returns.result import Result

from factledger.ports.audit import AuditUnavailable

__all__ = ["WorkerBeat", "WorkerHealthStore", "WorkerProblem", "WorkerState"]


class WorkerState(StrEnum):
    """Whether a worker says it is working."""

    RUNNING = "RUNNING"
    """It is in its loop (it is alive if its last beat is recent)."""
    STOPPED = "STOPPED"
    """It stopped cleanly and gave its leases up."""


class WorkerProblem(StrEnum):
    """What went wrong in a worker's last turn."""

    AUDIT_UNAVAILABLE = "AUDIT_UNAVAILABLE"
    """The audit database could not be reached or was locked."""
    STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
    """The event store or the vault could not be reached."""
    COMPACTION_INCOMPLETE = "COMPACTION_INCOMPLETE"
    """Expired bodies were deleted but the store file could not be compacted yet (a reader
    held the write-ahead log): their bytes may still be on disk until the next purge."""


@frozen
class WorkerBeat:
    """One worker's health record, as it last wrote it."""

    owner: str
    """The worker's name."""
    state: WorkerState
    """RUNNING or STOPPED."""
    started_at: datetime
    """When the worker started."""
    beat_at: datetime
    """When it wrote this record."""
    partitions: tuple[int, ...] = ()
    """The partition logs it follows."""
    maintenance: bool = False
    """Whether it holds the maintenance lease (retention sweep, vault purge, compaction)."""
    projected_events: int = 0
    """Events applied since it started, every projection."""
    caught_up_at: datetime | None = None
    """The last time every partition it follows was caught up, every projection."""
    purged_at: datetime | None = None
    """The last time it purged expired bodies and compacted the store."""
    purged_bodies: int = 0
    """Bodies it deleted since it started (a store that expires bodies itself counts none)."""
    swept_at: datetime | None = None
    """The last time it ran the retention sweep."""
    failure: WorkerProblem | None = None
    """What went wrong in its last turn, if anything did."""


class WorkerHealthStore(Protocol):
    """Where workers write their health records and ``/healthz`` reads them."""

    def record(self, beat: WorkerBeat) -> Result[None, AuditUnavailable]:
        """Replace the worker's record with ``beat``."""
        ...

    def beats(self, since: datetime) -> Result[tuple[WorkerBeat, ...], AuditUnavailable]:
        """Every record written at or after ``since``, by owner."""
        ...
