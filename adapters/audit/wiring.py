"""Building the audit projections, the retention sweep, the leases and the worker health
records from settings.

``[audit] url`` unset means a SQLite file beside the store: ``audit.db`` in the folder of the
SQLite store file, or ``.factledger/audit.db`` for the other stores. The schema is migrated
when the audit is opened (the projector's start-up). Leases: on Redis for a Redis store, in
the audit database for the SQLite store (its workers may be several processes), in-process
for the in-memory store.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from attrs import define, field, frozen
from returns.result import Failure, Result, Success

from factledger.adapters.audit.database import UnsupportedAuditUrl, open_audit_database
from factledger.adapters.audit.leases import MemoryLeases, RedisLeases
from factledger.adapters.audit.sql_leases import SqlLeases
from factledger.adapters.audit.store import SqlAuditStore
from factledger.adapters.audit.worker_health import SqlWorkerHealth
from factledger.adapters.config.settings import Settings
from factledger.adapters.memory.event_store import MemoryEventStore
from factledger.adapters.redis.connection import connect
from factledger.adapters.redis.event_store import RedisEventStore
from factledger.adapters.sqlite.event_store import SqliteEventStore
from factledger.application.audit_views import AuditViews
from factledger.application.projections.follower import Follower, FollowerSettings
from factledger.application.projections.projector import AuditRowsBatches, Projector
from factledger.application.projections.retention import RetentionSweep, RunExpiryBatches
from factledger.application.worker.health import HealthThresholds, WorkerHealthView
from factledger.domain.event_catalog import default_codec
from factledger.ports.audit import AuditUnavailable
from factledger.ports.clock import Clock
from factledger.ports.event_store import EventStore
from factledger.ports.partition_leases import PartitionLeases
from factledger.ports.retention import LogRetention

__all__ = [
    "AuditOpenFailure",
    "AuditRuntime",
    "audit_url",
    "health_thresholds",
    "open_audit",
    "retention_of",
]


def audit_url(settings: Settings) -> str:
    """The audit database URL the settings give (see the module docstring)."""
    if settings.audit.url is not None:
        return settings.audit.url
    folder = (
        Path(settings.store.path).parent if settings.store.kind == "sqlite" else Path(".factledger")
    )
    return f"sqlite:///{(folder / 'audit.db').as_posix()}"


def retention_of(events: EventStore) -> LogRetention | None:
    """The event store's retention hooks (every adapter of this package has them)."""
    if isinstance(events, RedisEventStore | SqliteEventStore | MemoryEventStore):
        return events
    return None


@frozen
class AuditOpenFailure:
    """The audit database cannot be used."""

    reason: str
    """``UNSUPPORTED_URL`` or the unavailability code."""
    message: str
    """One line for an operator, naming the setting (never driver text)."""


@define
class AuditRuntime:
    """The audit store, its projections, the retention sweep and the leases, wired."""

    settings: Settings
    """The settings it was built from."""
    clock: Clock
    """The clock of leases and health records."""
    store: SqlAuditStore
    """The audit rows and checkpoints."""
    audit: Projector
    """The audit rows projection."""
    expiry: Projector | None
    """The run-expiry projection (when the event store has retention hooks)."""
    sweep: RetentionSweep | None
    """The retention sweep (when the event store has retention hooks)."""
    leases: PartitionLeases
    """Partition leases (Redis for a Redis store, in-process otherwise)."""
    _closers: list[Callable[[], None]] = field(factory=list)

    @property
    def projectors(self) -> tuple[Projector, ...]:
        """Every projection the follower runs."""
        return (self.audit,) if self.expiry is None else (self.audit, self.expiry)

    @property
    def health(self) -> SqlWorkerHealth:
        """The workers' health records (in the audit database)."""
        return SqlWorkerHealth(self.store.database)

    def follower(self, settings: FollowerSettings) -> Follower:
        """A worker following every projection."""
        return Follower(self.projectors, self.leases, settings)

    def health_view(self) -> WorkerHealthView:
        """What ``/healthz`` reports about the workers, with the ``[worker]`` thresholds."""
        return WorkerHealthView(self.health, self.clock, health_thresholds(self.settings))

    def views(self) -> AuditViews:
        """The audit as the facade shows it, worker health included."""
        return AuditViews(self.audit, self.store, self.health_view())

    def close(self) -> None:
        """Close connections."""
        while self._closers:
            self._closers.pop()()


def health_thresholds(settings: Settings) -> HealthThresholds:
    """When worker records are stale and delays are problems, from ``[worker]``."""
    worker = settings.worker
    beat = worker.heartbeat_interval_seconds
    return HealthThresholds(
        partitions=settings.store.partitions,
        stale_after=timedelta(seconds=3 * beat + worker.lease_ttl_seconds),
        max_lag=timedelta(seconds=worker.max_lag_seconds),
        purge_overdue=timedelta(seconds=2 * worker.purge_interval_seconds + 3 * beat),
    )


def _leases(
    settings: Settings, store: SqlAuditStore, clock: Clock
) -> tuple[PartitionLeases, Callable[[], None] | None]:
    if settings.store.kind == "redis":
        client = connect(settings.store.url, cluster=settings.store.cluster)
        return RedisLeases(client, settings.store.key_prefix), client.close
    if settings.store.kind == "sqlite":
        return SqlLeases(store.database, clock), None
    return MemoryLeases(clock), None


def open_audit(
    settings: Settings,
    events: EventStore,
    clock: Clock,
    *,
    url: str | None = None,
    batch_size: int = 2000,
    timeout: float | None = None,
) -> Result[AuditRuntime, AuditOpenFailure]:
    """Open (and migrate) the audit database and wire the projections over ``events``. Every
    wait for the audit database is bounded by ``timeout`` seconds (default ``[audit]
    timeout_seconds``: the views a caller waits on)."""
    opened = open_audit_database(
        url or audit_url(settings), timeout=timeout or settings.audit.timeout_seconds
    )
    if not isinstance(opened, Success):
        failure = opened.failure()
        if isinstance(failure, UnsupportedAuditUrl):
            return Failure(
                AuditOpenFailure(
                    "UNSUPPORTED_URL",
                    f"audit.url: {failure.url!r} is neither SQLite nor MySQL/MariaDB",
                )
            )
        assert isinstance(failure, AuditUnavailable)
        return Failure(
            AuditOpenFailure(failure.reason, f"audit.url: the audit database is {failure.reason}")
        )
    store = SqlAuditStore(opened.unwrap())
    closers: list[Callable[[], None]] = [store.close]
    codec = default_codec()
    audit = Projector(events, store, AuditRowsBatches(store, codec), batch_size=batch_size)
    retention = retention_of(events)
    expiry = sweep = None
    if retention is not None:
        days = settings.retention.days
        expiry = Projector(
            events, store, RunExpiryBatches(store, retention, codec, days), batch_size=batch_size
        )
        sweep = RetentionSweep(events, retention, store, clock, days)
    leases, close_leases = _leases(settings, store, clock)
    if close_leases is not None:
        closers.append(close_leases)
    return Success(AuditRuntime(settings, clock, store, audit, expiry, sweep, leases, closers))
