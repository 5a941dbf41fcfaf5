"""Building a worker (``factledger worker``, or a thread of a process embedding the in-memory
store) from settings, over an event store and a vault already opened; and reading the
workers' health for a probe (ADR 0024)."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from datetime import timedelta

from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.adapters.audit.database import AuditDatabase, open_audit_database
from factledger.adapters.audit.wiring import (
    AuditOpenFailure,
    AuditRuntime,
    audit_url,
    health_thresholds,
    open_audit,
)
from factledger.adapters.audit.worker_health import SqlWorkerHealth
from factledger.adapters.config.settings import Settings
from factledger.adapters.redis.payload_vault import RedisPayloadVault
from factledger.adapters.system import SystemClock
from factledger.application.projections.follower import FollowerSettings
from factledger.application.worker.health import WorkerHealth, WorkerHealthView
from factledger.application.worker.loop import Worker, WorkerTimings
from factledger.application.worker.maintenance import Maintenance, MaintenanceSchedule
from factledger.application.worker.notices import WorkerNotice
from factledger.ports.audit import AuditUnavailable
from factledger.ports.clock import Clock
from factledger.ports.event_store import EventStore
from factledger.ports.payload_vault import PayloadVault

__all__ = ["WorkerRuntime", "build_worker", "default_owner", "read_worker_health"]


def default_owner() -> str:
    """``<host>:<pid>``: unique among the workers of one deployment."""
    return f"{socket.gethostname()}:{os.getpid()}"


@frozen
class WorkerRuntime:
    """A worker and what it was built on."""

    worker: Worker
    """The loop."""
    audit: AuditRuntime
    """The audit database, projections, leases and health records it uses."""
    owner: str
    """Its name among the workers."""

    def close(self) -> None:
        """Close the audit database's connections (the stores are the caller's)."""
        self.audit.close()


def _seconds(value: float) -> timedelta:
    return timedelta(seconds=value)


def build_worker(
    settings: Settings,
    events: EventStore,
    vault: PayloadVault,
    clock: Clock,
    *,
    owner: str | None = None,
    notify: Callable[[WorkerNotice], None] | None = None,
) -> Result[WorkerRuntime, AuditOpenFailure]:
    """A worker over ``events`` and ``vault`` with the ``[worker]`` settings."""
    config = settings.worker
    name = owner or config.owner or default_owner()
    opened = open_audit(
        settings,
        events,
        clock,
        batch_size=config.batch_size,
        timeout=config.audit_timeout_seconds,
    )
    if not isinstance(opened, Success):
        return Failure(opened.failure())
    audit: AuditRuntime = opened.unwrap()
    follower = audit.follower(
        FollowerSettings(
            name,
            lease_ttl=_seconds(config.lease_ttl_seconds),
            poll_interval=config.poll_interval_seconds,
            retry_interval=config.retry_interval_seconds,
            batches_per_turn=config.batches_per_turn,
        )
    )
    if isinstance(vault, RedisPayloadVault):
        vault = vault.rewriting_aof(config.redis_aof_rewrite)
    schedule = MaintenanceSchedule(
        purge_interval=_seconds(config.purge_interval_seconds),
        retention_interval=_seconds(config.retention_interval_seconds),
        retry_interval=_seconds(config.retry_interval_seconds),
        lease_ttl=_seconds(config.lease_ttl_seconds),
    )
    maintenance = Maintenance(vault, audit.sweep, audit.leases, clock, name, schedule)
    timings = WorkerTimings(
        poll_interval=_seconds(config.poll_interval_seconds),
        retry_interval=_seconds(config.retry_interval_seconds),
        heartbeat_interval=_seconds(config.heartbeat_interval_seconds),
    )
    worker = Worker(follower, maintenance, audit.health, clock, name, timings, notify or _ignore)
    return Success(WorkerRuntime(worker, audit, name))


def _ignore(_: WorkerNotice) -> None:
    return None


def read_worker_health(
    settings: Settings, clock: Clock | None = None
) -> WorkerHealth | AuditOpenFailure | AuditUnavailable:
    """The workers' health from their records, for a probe that holds no harness (``/healthz``
    of a transport): opens the audit database with ``[audit] timeout_seconds``, reads, closes."""
    opened = open_audit_database(audit_url(settings), timeout=settings.audit.timeout_seconds)
    if not isinstance(opened, Success):
        failure = opened.failure()
        if isinstance(failure, AuditUnavailable):
            return failure
        return AuditOpenFailure("UNSUPPORTED_URL", f"audit.url: {failure.url!r} is not supported")
    database: AuditDatabase = opened.unwrap()
    try:
        view = WorkerHealthView(
            SqlWorkerHealth(database), clock or SystemClock(), health_thresholds(settings)
        )
        return view.read()
    finally:
        database.close()
