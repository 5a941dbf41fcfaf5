"""The audit as the facade shows it: caught up from the log on demand, then read, typed; and
what the workers' health records say.

Every answer comes within the audit's timeout (``[audit] timeout_seconds``): a locked or
unreachable audit database raises ``AuditUnavailableError`` (a ``ConnectionError``, which the
facade answers as STORE_UNAVAILABLE) instead of waiting for it.
"""

from __future__ import annotations

from attrs import frozen
from returns.result import Success

from factledger.application.projections.projector import CatchUpReport, Projector
from factledger.application.worker.health import WorkerHealth, WorkerHealthView
from factledger.domain.json_shape import JsonRecord
from factledger.ports.audit import (
    AuditStore,
    AuditUnavailable,
    InvocationRow,
    RunAudit,
    RunRow,
    UsageRow,
)
from factledger.ports.store_errors import StoreFailureReason, StoreUnavailable

__all__ = ["AuditRows", "AuditUnavailableError", "AuditViews", "RebuildReport"]


class AuditUnavailableError(ConnectionError):
    """The audit database (or the event store it catches up from) did not answer in time."""

    def __init__(self, reason: StoreFailureReason) -> None:
        super().__init__(f"the audit is unavailable ({reason})")
        self.reason: StoreFailureReason = reason
        """Why, in the reasons every store reports (``TIMEOUT``, ``CONNECTION``...)."""


@frozen
class AuditRows(JsonRecord):
    """One run's durable audit rows: metadata only, never a body, a query or a literal."""

    run: RunRow
    """The run's row."""
    invocations: tuple[InvocationRow, ...]
    """One row per tool call, in call order."""
    model_usage: tuple[UsageRow, ...]
    """Model calls and tokens per purpose."""


@frozen
class RebuildReport(JsonRecord):
    """What catching up or rebuilding the audit rows did."""

    ok: bool
    """True when every partition was applied."""
    events: int
    """Events applied."""
    rows: int
    """Rows written."""
    reason: str | None = None
    """Why it stopped short, when it did."""


class AuditViews:
    """Audit rows of one store, the projection that keeps them, and the workers' health."""

    def __init__(
        self, projector: Projector, store: AuditStore, health: WorkerHealthView | None = None
    ) -> None:
        self._projector = projector
        self._store = store
        self._health = health

    def catch_up(self) -> RebuildReport:
        """Apply what the log holds after the checkpoints."""
        return _report(self._projector.catch_up())

    def rebuild(self) -> RebuildReport:
        """Drop and rebuild the audit rows from the log."""
        return _report(self._projector.rebuild())

    def run(self, run_id: str) -> AuditRows | None:
        """One run's audit rows (after catching up), or None when the audit has none."""
        caught_up = self._projector.catch_up()
        if isinstance(caught_up, AuditUnavailable | StoreUnavailable):
            raise AuditUnavailableError(caught_up.reason)
        read = self._store.read_run(run_id)
        if not isinstance(read, Success):
            raise AuditUnavailableError(read.failure().reason)
        audit: RunAudit | None = read.unwrap()
        if audit is None:
            return None
        return AuditRows(
            run=audit.run,
            invocations=tuple(audit.invocations.values()),
            model_usage=tuple(audit.usage.values()),
        )

    def worker_health(self) -> WorkerHealth | None:
        """The workers' health (for ``/healthz``); ``None`` when no health records are wired."""
        if self._health is None:
            return None
        health = self._health.read()
        if isinstance(health, AuditUnavailable):
            raise AuditUnavailableError(health.reason)
        return health


def _report(outcome: object) -> RebuildReport:
    if isinstance(outcome, CatchUpReport):
        return RebuildReport(ok=True, events=outcome.events, rows=outcome.rows)
    return RebuildReport(
        ok=False, events=0, rows=0, reason=str(getattr(outcome, "reason", "UNAVAILABLE"))
    )
