"""The audit as the facade shows it: caught up from the log on demand, then read, typed."""

from __future__ import annotations

from attrs import frozen
from returns.result import Success

from factledger.application.projections.projector import CatchUpReport, Projector
from factledger.domain.json_shape import record_json
from factledger.domain.json_types import JsonObject
from factledger.ports.audit import AuditStore, InvocationRow, RunAudit, RunRow, UsageRow

__all__ = ["AuditRows", "AuditViews", "RebuildReport"]


@frozen
class AuditRows:
    """One run's durable audit rows: metadata only, never a body, a query or a literal."""

    run: RunRow
    """The run's row."""
    invocations: tuple[InvocationRow, ...]
    """One row per tool call, in call order."""
    model_usage: tuple[UsageRow, ...]
    """Model calls and tokens per purpose."""

    def to_json(self) -> JsonObject:
        """The rows as JSON."""
        return record_json(self)


@frozen
class RebuildReport:
    """What catching up or rebuilding the audit rows did."""

    ok: bool
    """True when every partition was applied."""
    events: int
    """Events applied."""
    rows: int
    """Rows written."""
    reason: str | None = None
    """Why it stopped short, when it did."""

    def to_json(self) -> JsonObject:
        """The report as JSON."""
        return record_json(self)


class AuditViews:
    """Audit rows of one store, and the projection that keeps them."""

    def __init__(self, projector: Projector, store: AuditStore) -> None:
        self._projector = projector
        self._store = store

    def catch_up(self) -> RebuildReport:
        """Apply what the log holds after the checkpoints."""
        return _report(self._projector.catch_up())

    def rebuild(self) -> RebuildReport:
        """Drop and rebuild the audit rows from the log."""
        return _report(self._projector.rebuild())

    def run(self, run_id: str) -> AuditRows | None:
        """One run's audit rows (after catching up), or None when the audit has none."""
        self._projector.catch_up()
        read = self._store.read_run(run_id)
        if not isinstance(read, Success):
            raise ConnectionError(read.failure().reason)
        audit: RunAudit | None = read.unwrap()
        if audit is None:
            return None
        return AuditRows(
            run=audit.run,
            invocations=tuple(audit.invocations.values()),
            model_usage=tuple(audit.usage.values()),
        )


def _report(outcome: object) -> RebuildReport:
    if isinstance(outcome, CatchUpReport):
        return RebuildReport(ok=True, events=outcome.events, rows=outcome.rows)
    return RebuildReport(
        ok=False, events=0, rows=0, reason=str(getattr(outcome, "reason", "UNAVAILABLE"))
    )
