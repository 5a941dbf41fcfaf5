"""The store-wide jobs of the workers: the vault purge (with compaction) and the retention
sweep, run by whichever worker holds the maintenance lease (ADR 0024, 0025).

The purge runs every ``purge_interval``, so a body that expires at ``T`` is deleted, and its
bytes removed from the store's files, by ``T + purge_interval`` while a worker runs (plus one
lease time to live when the worker that held the lease died). A purge that failed, or whose
compaction could not finish, is tried again after ``retry_interval``. The sweep runs every
``retention_interval``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from attrs import frozen
from returns.result import Success

from factledger.application.projections.retention import RetentionSweep, SweepReport
from factledger.ports.audit import AuditUnavailable
from factledger.ports.clock import Clock
from factledger.ports.partition_leases import MAINTENANCE_LEASE, PartitionLeases
from factledger.ports.payload_vault import PayloadVault, VaultPurged
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["Maintenance", "MaintenanceReport", "MaintenanceSchedule"]


@frozen
class MaintenanceSchedule:
    """How often the store-wide jobs run."""

    purge_interval: timedelta = timedelta(seconds=60)
    """Between two vault purges (a body outlives its expiry by at most this long)."""
    retention_interval: timedelta = timedelta(minutes=10)
    """Between two retention sweeps."""
    retry_interval: timedelta = timedelta(seconds=1)
    """Before a failed or incomplete job is tried again."""
    lease_ttl: timedelta = timedelta(seconds=10)
    """How long the maintenance lease lasts without renewal."""


@frozen
class MaintenanceReport:
    """What one look at the jobs did."""

    held: bool
    """Whether this worker holds the maintenance lease."""
    purged: VaultPurged | StoreUnavailable | None = None
    """The purge's outcome, when one ran."""
    swept: SweepReport | AuditUnavailable | StoreUnavailable | None = None
    """The sweep's outcome, when one ran."""


class Maintenance:
    """Runs the jobs that are due while this worker holds the maintenance lease."""

    def __init__(
        self,
        vault: PayloadVault,
        sweep: RetentionSweep | None,
        leases: PartitionLeases,
        clock: Clock,
        owner: str,
        schedule: MaintenanceSchedule,
    ) -> None:
        self._vault = vault
        self._sweep = sweep
        self._leases = leases
        self._clock = clock
        self._owner = owner
        self._schedule = schedule
        self._held = False
        self._next_purge: datetime | None = None
        self._next_sweep: datetime | None = None

    @property
    def held(self) -> bool:
        """Whether this worker held the maintenance lease at its last look."""
        return self._held

    def next_due(self) -> datetime | None:
        """When the next job is due (``None`` before the first look or without the lease)."""
        if not self._held:
            return None
        due = [moment for moment in (self._next_purge, self._next_sweep) if moment is not None]
        return min(due) if due else None

    def run_due(self) -> MaintenanceReport:
        """Take or renew the lease, then run every job that is due."""
        taken = self._leases.acquire(MAINTENANCE_LEASE, self._owner, self._schedule.lease_ttl)
        held = isinstance(taken, Success) and taken.unwrap()
        if held and not self._held:
            # A new holder starts with both jobs due: the last holder's schedule is unknown.
            self._next_purge = self._next_sweep = self._clock.now()
        self._held = held
        if not held:
            return MaintenanceReport(held=False)
        now = self._clock.now()
        purged = self._purge(now) if self._due(self._next_purge, now) else None
        swept = self._run_sweep(now) if self._due(self._next_sweep, now) else None
        return MaintenanceReport(True, purged, swept)

    def release(self) -> None:
        """Give the maintenance lease up (best effort)."""
        if self._held:
            self._leases.release(MAINTENANCE_LEASE, self._owner)
        self._held = False

    @staticmethod
    def _due(moment: datetime | None, now: datetime) -> bool:
        return moment is not None and moment <= now

    def _purge(self, now: datetime) -> VaultPurged | StoreUnavailable:
        schedule = self._schedule
        purged = self._vault.purge_expired()
        if not isinstance(purged, Success):
            self._next_purge = now + schedule.retry_interval
            return purged.failure()
        outcome: VaultPurged = purged.unwrap()
        self._next_purge = now + (
            schedule.purge_interval if outcome.compacted else schedule.retry_interval
        )
        return outcome

    def _run_sweep(self, now: datetime) -> SweepReport | AuditUnavailable | StoreUnavailable | None:
        schedule = self._schedule
        if self._sweep is None:
            self._next_sweep = None
            return None
        swept = self._sweep.sweep()
        failed = not isinstance(swept, SweepReport)
        self._next_sweep = now + (
            schedule.retry_interval if failed else schedule.retention_interval
        )
        return swept
