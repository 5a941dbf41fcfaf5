"""The audit as the facade shows it: caught up from the log on demand, then read."""

from __future__ import annotations

import typing
from datetime import datetime
from enum import Enum

import attrs
from returns.result import Success

from factledger.application.projections.projector import CatchUpReport, Projector
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.ports.audit import AuditStore, RunAudit

__all__ = ["AuditViews"]


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
    """Audit rows of one store, and the projection that keeps them."""

    def __init__(self, projector: Projector, store: AuditStore) -> None:
        self._projector = projector
        self._store = store

    def catch_up(self) -> JsonObject:
        """Apply what the log holds after the checkpoints; a summary (or the failure code)."""
        return _summary(self._projector.catch_up())

    def rebuild(self) -> JsonObject:
        """Drop and rebuild the audit rows from the log."""
        return _summary(self._projector.rebuild())

    def run(self, run_id: str) -> JsonObject | None:
        """One run's audit rows (after catching up), or None when the audit has none."""
        self._projector.catch_up()
        read = self._store.read_run(run_id)
        if not isinstance(read, Success):
            raise ConnectionError(read.failure().reason)
        audit: RunAudit | None = read.unwrap()
        if audit is None:
            return None
        return {
            "run": _json(audit.run),
            "invocations": [_json(row) for row in audit.invocations.values()],
            "model_usage": [_json(row) for row in audit.usage.values()],
        }


def _summary(outcome: object) -> JsonObject:
    if isinstance(outcome, CatchUpReport):
        return {"ok": True, "events": outcome.events, "rows": outcome.rows}
    return {"ok": False, "reason": str(getattr(outcome, "reason", "UNAVAILABLE"))}
