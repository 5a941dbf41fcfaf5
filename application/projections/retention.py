"""Retention (``[retention] days``, separate from the vault's ``ttl_seconds``; ADR 0008).

- ``RunExpiryBatches`` is a projection with a checkpoint and no rows: when a run's RUN_ENDED
  (and its RELEASE_DECISION, which may come later) is in the log, the run's keys in the event
  store are set to expire ``days`` after it; then the checkpoint moves. Setting an expiry twice
  does no harm, so a batch retried after a crash is safe.
- ``RetentionSweep`` trims the partition logs: an entry goes only once every projection's
  checkpoint has passed it and it is older than the retention horizon (never by length), and
  embedded stores remove the runs whose expiry has passed. Audit rows are never touched: they
  are what remains of a run after retention.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Final

from attrs import frozen
from returns.result import Success

from factledger.application.projections.projector import decode_all
from factledger.domain.codec import EventCodec
from factledger.domain.release.events import ReleaseDecided
from factledger.domain.run_events import RunEnded
from factledger.ports.audit import (
    AUDIT_PROJECTION,
    EXPIRY_PROJECTION,
    AuditChanges,
    AuditCommit,
    AuditStore,
    AuditUnavailable,
    Checkpoint,
    CommitOutcome,
)
from factledger.ports.clock import Clock
from factledger.ports.event_store import EventStore, LogEntry
from factledger.ports.retention import LogRetention, SweepCounts
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["PROJECTIONS", "RetentionSweep", "RunExpiryBatches", "SweepReport"]

PROJECTIONS: Final = (AUDIT_PROJECTION, EXPIRY_PROJECTION)
"""Every projection with checkpoints: the log is trimmed behind all of them."""

_ENDS: Final = (b'"type":"RUN_ENDED"', b'"type":"RELEASE_DECISION"')


def _no_rows(_: object) -> AuditChanges:
    return AuditChanges()


class RunExpiryBatches:
    """Sets each ended run's expiry in the event store (see the module docstring)."""

    def __init__(
        self, audit: AuditStore, retention: LogRetention, codec: EventCodec, days: int
    ) -> None:
        self._audit = audit
        self._retention = retention
        self._codec = codec
        self._keep = timedelta(days=days)

    @property
    def name(self) -> str:
        return EXPIRY_PROJECTION

    def apply(
        self,
        partition: int,
        expected: Checkpoint,
        then: Checkpoint,
        entries: tuple[LogEntry, ...],
    ) -> CommitOutcome | StoreUnavailable:
        # Only two event types matter; their type is in the canonical bytes, so every other
        # event is passed over without decoding it.
        ends = [e.event for e in entries if any(marker in e.event.data for marker in _ENDS)]
        for logged in decode_all(self._codec, ends):
            recorded = logged.recorded
            if recorded is None or not isinstance(recorded.event, RunEnded | ReleaseDecided):
                continue
            expired = self._retention.expire_run(recorded.run_id, recorded.occurred_at + self._keep)
            if not isinstance(expired, Success):
                return expired.failure()
        commit = AuditCommit(EXPIRY_PROJECTION, partition, expected, then)
        return self._audit.commit(commit, _no_rows)


@frozen
class SweepReport:
    """What a sweep removed."""

    counts: SweepCounts
    """Log entries and runs removed."""
    horizon_days: int
    """The retention it applied."""


class RetentionSweep:
    """Trims the logs behind every projection and past the horizon; see the module doc."""

    def __init__(
        self,
        events: EventStore,
        retention: LogRetention,
        audit: AuditStore,
        clock: Clock,
        days: int,
        projections: Sequence[str] = PROJECTIONS,
    ) -> None:
        self._events = events
        self._retention = retention
        self._audit = audit
        self._clock = clock
        self._keep = timedelta(days=days)
        self._days = days
        self._projections = tuple(projections)

    def sweep(self) -> SweepReport | AuditUnavailable | StoreUnavailable:
        """One sweep over every partition."""
        partitions = self._events.partitions
        positions: dict[int, list[str | None]] = {p: [] for p in range(partitions)}
        for projection in self._projections:
            held = self._audit.checkpoints(projection, partitions)
            if not isinstance(held, Success):
                return held.failure()
            for partition, checkpoint in enumerate(held.unwrap()):
                # A projection in the middle of a rebuild still needs its whole log.
                positions[partition].append(None if checkpoint.rebuilding else checkpoint.position)
        now = self._clock.now()
        swept = self._retention.sweep(
            now, now - self._keep, {p: tuple(found) for p, found in positions.items()}
        )
        if not isinstance(swept, Success):
            return swept.failure()
        return SweepReport(swept.unwrap(), self._days)
