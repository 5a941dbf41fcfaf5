"""How the workers are doing, from their health records: what ``/healthz`` reports about them.

``assess`` is a pure function of the records and the time: a worker is live while its last
record says RUNNING and is younger than ``stale_after``. The workers are DOWN when none is
live, DEGRADED when a live one reports a failure, a partition log has no live follower, the
projections lag behind by more than ``max_lag`` or no purge has run for longer than
``purge_overdue``, and OK otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from enum import StrEnum

from attrs import frozen
from returns.result import Success

from factledger.domain.json_types import JsonObject
from factledger.ports.audit import AuditUnavailable
from factledger.ports.clock import Clock
from factledger.ports.worker_health import WorkerBeat, WorkerHealthStore, WorkerState

__all__ = [
    "HealthProblem",
    "HealthStatus",
    "HealthThresholds",
    "WorkerHealth",
    "WorkerHealthView",
    "assess",
]


class HealthStatus(StrEnum):
    """The workers' state as a whole."""

    OK = "OK"
    DEGRADED = "DEGRADED"
    DOWN = "DOWN"


class HealthProblem(StrEnum):
    """Why the workers are not OK."""

    NO_LIVE_WORKER = "NO_LIVE_WORKER"
    """No worker has written a RUNNING record recently: nothing keeps the promises."""
    WORKER_FAILING = "WORKER_FAILING"
    """A live worker's last turn failed (audit or store unavailable, compaction blocked)."""
    PARTITIONS_UNFOLLOWED = "PARTITIONS_UNFOLLOWED"
    """Some partition log has no live worker following it."""
    PROJECTION_LAGGING = "PROJECTION_LAGGING"
    """The audit projection has not been caught up for longer than allowed."""
    PURGE_OVERDUE = "PURGE_OVERDUE"
    """No worker has purged the vault for longer than allowed."""


@frozen
class HealthThresholds:
    """When records count as stale and delays as problems."""

    partitions: int
    """How many partition logs the store has."""
    stale_after: timedelta = timedelta(seconds=30)
    """A worker whose last record is older is not live."""
    max_lag: timedelta = timedelta(seconds=60)
    """Longest time since every partition was last caught up."""
    purge_overdue: timedelta = timedelta(minutes=3)
    """Longest time since the last vault purge."""


@frozen
class WorkerHealth:
    """The workers' health at one moment."""

    status: HealthStatus
    """OK, DEGRADED or DOWN."""
    checked_at: datetime
    """When it was assessed."""
    live: tuple[WorkerBeat, ...] = ()
    """The live workers' records."""
    problems: tuple[HealthProblem, ...] = ()
    """Why it is not OK."""
    unfollowed: tuple[int, ...] = ()
    """Partition logs no live worker follows."""
    lag_seconds: float | None = None
    """Seconds since the partitions were last all caught up (``None``: never, or no worker)."""
    purge_age_seconds: float | None = None
    """Seconds since the last vault purge (``None``: none recorded)."""

    def to_json(self) -> JsonObject:
        """The health as JSON (ids, counts, codes and times only)."""
        return {
            "status": self.status.value,
            "checked_at": self.checked_at.isoformat(),
            "problems": [problem.value for problem in self.problems],
            "workers": [_beat_json(beat) for beat in self.live],
            "unfollowed_partitions": list(self.unfollowed),
            "lag_seconds": self.lag_seconds,
            "purge_age_seconds": self.purge_age_seconds,
        }


def _beat_json(beat: WorkerBeat) -> JsonObject:
    return {
        "owner": beat.owner,
        "started_at": beat.started_at.isoformat(),
        "beat_at": beat.beat_at.isoformat(),
        "partitions": list(beat.partitions),
        "maintenance": beat.maintenance,
        "projected_events": beat.projected_events,
        "purged_bodies": beat.purged_bodies,
        "failure": None if beat.failure is None else beat.failure.value,
    }


def _age(moment: datetime | None, now: datetime) -> float | None:
    return None if moment is None else max(0.0, (now - moment).total_seconds())


def assess(beats: Sequence[WorkerBeat], now: datetime, limits: HealthThresholds) -> WorkerHealth:
    """The workers' health from their records (see the module docstring)."""
    live = tuple(
        beat
        for beat in beats
        if beat.state is WorkerState.RUNNING and now - beat.beat_at <= limits.stale_after
    )
    if not live:
        return WorkerHealth(HealthStatus.DOWN, now, problems=(HealthProblem.NO_LIVE_WORKER,))
    followed = {partition for beat in live for partition in beat.partitions}
    unfollowed = tuple(p for p in range(limits.partitions) if p not in followed)
    caught_up = [beat.caught_up_at for beat in live]
    lag = None if None in caught_up else _age(min(m for m in caught_up if m is not None), now)
    purges = [beat.purged_at for beat in beats if beat.purged_at is not None]
    purge_age = _age(max(purges), now) if purges else None
    problems: list[HealthProblem] = []
    if any(beat.failure is not None for beat in live):
        problems.append(HealthProblem.WORKER_FAILING)
    if unfollowed:
        problems.append(HealthProblem.PARTITIONS_UNFOLLOWED)
    if lag is None or lag > limits.max_lag.total_seconds():
        problems.append(HealthProblem.PROJECTION_LAGGING)
    if purge_age is None or purge_age > limits.purge_overdue.total_seconds():
        problems.append(HealthProblem.PURGE_OVERDUE)
    status = HealthStatus.DEGRADED if problems else HealthStatus.OK
    return WorkerHealth(status, now, live, tuple(problems), unfollowed, lag, purge_age)


class WorkerHealthView:
    """Reads the health records and assesses them."""

    def __init__(self, store: WorkerHealthStore, clock: Clock, limits: HealthThresholds) -> None:
        self._store = store
        self._clock = clock
        self._limits = limits

    def read(self) -> WorkerHealth | AuditUnavailable:
        """The workers' health now; ``AuditUnavailable`` when the records cannot be read."""
        now = self._clock.now()
        # Records older than a week are gone anyway; the latest purge of a worker that has
        # stopped since still counts.
        beats = self._store.beats(now - timedelta(days=7))
        if not isinstance(beats, Success):
            return beats.failure()
        return assess(beats.unwrap(), now, self._limits)
