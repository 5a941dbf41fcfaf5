"""The audit as the facade shows it: caught up from the log on demand, then read; and what
the workers' health records say.

Every answer comes within the audit's timeout (``[audit] timeout_seconds``): a locked or
unreachable audit database raises ``AuditUnavailableError`` (a ``ConnectionError``, which the
facade answers as STORE_UNAVAILABLE) instead of waiting for it.
"""

from __future__ import annotations

import typing
from datetime import datetime
from enum import Enum

import attrs
from returns.result import Success

from factledger.application.projections.projector import CatchUpReport, Projector
from factledger.application.worker.health import WorkerHealth, WorkerHealthView
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.ports.audit import AuditStore, AuditUnavailable, RunAudit
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["AuditUnavailableError", "AuditViews"]


class AuditUnavailableError(ConnectionError):
    """The audit database (or the event store it catches up from) did not answer in time."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the audit is unavailable ({reason})")
        self.reason = reason
        """A short code: ``TIMEOUT``, ``CONNECTION`` or ``SERVER_ERROR``."""


def _json(value: object) -> JsonValue:
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, Enum):
        return _json(value.value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [_json(item) for item in value]
    if isinstance(value, dict):
        return {str(_json(key)): _json(item) for key, item in value.items()}
    if attrs.has(type(value)):
        fields = attrs.fields(typing.cast("type[attrs.AttrsInstance]", type(value)))
        return {f.name: _json(getattr(value, f.name)) for f in fields}
    return str(value)


class AuditViews:
    """Audit rows of one store, the projection that keeps them, and the workers' health."""

    def __init__(
        self, projector: Projector, store: AuditStore, health: WorkerHealthView | None = None
    ) -> None:
        self._projector = projector
        self._store = store
        self._health = health

    def catch_up(self) -> JsonObject:
        """Apply what the log holds after the checkpoints; a summary (or the failure code)."""
        return _summary(self._projector.catch_up())

    def rebuild(self) -> JsonObject:
        """Drop and rebuild the audit rows from the log."""
        return _summary(self._projector.rebuild())

    def run(self, run_id: str) -> JsonObject | None:
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
        return {
            "run": _json(audit.run),
            "invocations": [_json(row) for row in audit.invocations.values()],
            "model_usage": [_json(row) for row in audit.usage.values()],
        }

    def worker_health(self) -> WorkerHealth | None:
        """The workers' health (for ``/healthz``); ``None`` when no health records are wired."""
        if self._health is None:
            return None
        health = self._health.read()
        if isinstance(health, AuditUnavailable):
            raise AuditUnavailableError(health.reason)
        return health


def _summary(outcome: object) -> JsonObject:
    if isinstance(outcome, CatchUpReport):
        return {"ok": True, "events": outcome.events, "rows": outcome.rows}
    return {"ok": False, "reason": str(getattr(outcome, "reason", "UNAVAILABLE"))}
