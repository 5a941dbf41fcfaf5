"""The worker loop: keep the projections caught up, run the store-wide jobs, say how it is
doing, and stop cleanly (ADR 0024).

Each step (1) takes a follower turn: leases balanced, every projection caught up on the
partitions held, a bounded number of batches each; (2) when this worker holds the
maintenance lease, runs the jobs that are due (vault purge with compaction, retention sweep);
(3) writes its health record when one is due or something it reports changed. Then it waits
on the stop signal until the next thing is due: a set signal ends the wait at once, and the
step in hand ends after its current batch. On the way out it gives up every lease, leaves the
live workers and writes a STOPPED record, so the others take its partitions over at their
next turn. Time comes from the ``Clock`` port, waiting from the stop signal: a test drives
the loop with a manual clock and a signal whose wait moves that clock.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from attrs import evolve, field, frozen
from returns.result import Success

from factledger.application.projections.follower import Follower, StopSignal, TurnReport
from factledger.application.projections.retention import SweepReport
from factledger.application.worker.maintenance import Maintenance, MaintenanceReport
from factledger.application.worker.notices import (
    JobFailed,
    LogSwept,
    VaultPurgedNotice,
    WorkerNotice,
    WorkerStarted,
    WorkerStopped,
)
from factledger.ports.audit import AuditUnavailable
from factledger.ports.clock import Clock
from factledger.ports.payload_vault import VaultPurged
from factledger.ports.store_errors import StoreUnavailable
from factledger.ports.worker_health import WorkerBeat, WorkerHealthStore, WorkerProblem, WorkerState

__all__ = ["Worker", "WorkerTimings"]


@frozen
class WorkerTimings:
    """How often the loop does what it does (the follower's and maintenance's own settings
    are theirs)."""

    poll_interval: timedelta = timedelta(seconds=0.5)
    """Wait after a step that found nothing new to project."""
    retry_interval: timedelta = timedelta(seconds=1)
    """Wait after a step whose audit database or store was unavailable."""
    heartbeat_interval: timedelta = timedelta(seconds=5)
    """Between two health records when nothing changed."""


def _problem(failure: AuditUnavailable | StoreUnavailable) -> WorkerProblem:
    if isinstance(failure, AuditUnavailable):
        return WorkerProblem.AUDIT_UNAVAILABLE
    return WorkerProblem.STORE_UNAVAILABLE


def _ignore(_: WorkerNotice) -> None:
    return None


@frozen
class _Tally:
    """What the worker has done since it started (replaced, never mutated)."""

    started_at: datetime
    projected: int = 0
    caught_up_at: datetime | None = None
    purged_at: datetime | None = None
    purged_bodies: int = 0
    swept_at: datetime | None = None
    turn_failure: WorkerProblem | None = None
    job_failure: WorkerProblem | None = None
    partitions: tuple[int, ...] = field(factory=tuple)


class Worker:
    """One worker process's loop; see the module docstring."""

    def __init__(
        self,
        follower: Follower,
        maintenance: Maintenance,
        health: WorkerHealthStore,
        clock: Clock,
        owner: str,
        settings: WorkerTimings,
        notify: Callable[[WorkerNotice], None] = _ignore,
    ) -> None:
        self._follower = follower
        self._maintenance = maintenance
        self._health = health
        self._clock = clock
        self._owner = owner
        self._settings = settings
        self._notify = notify
        self._tally = _Tally(clock.now())
        self._last_beat: WorkerBeat | None = None

    @property
    def last_beat(self) -> WorkerBeat | None:
        """The last health record written (or attempted)."""
        return self._last_beat

    def run(self, stop: StopSignal, *, steps: int | None = None) -> WorkerBeat:
        """Step until ``stop`` is set (or ``steps`` steps are done); returns the STOPPED record
        written on the way out."""
        self._tally = _Tally(self._clock.now())
        self._notify(WorkerStarted(self._owner, self._tally.started_at))
        self._beat(WorkerState.RUNNING)
        done = 0
        try:
            while not stop.is_set() and (steps is None or done < steps):
                wait = self.step(stop)
                done += 1
                if wait > 0 and (steps is None or done < steps):
                    stop.wait(wait)
        finally:
            self._follower.release_all()
            self._maintenance.release()
            final = self._beat(WorkerState.STOPPED)
            self._notify(WorkerStopped(self._owner, final.beat_at, self._tally.projected))
        return final

    def step(self, stop: StopSignal) -> float:
        """One turn, the due jobs and a health record if due; the seconds to wait next."""
        turn = self._follower.turn(stop)
        self._after_turn(turn)
        if not stop.is_set():
            self._after_jobs(self._maintenance.run_due())
        if self._beat_due():
            self._beat(WorkerState.RUNNING)
        return self._wait_after(turn)

    # -- bookkeeping --------------------------------------------------------------------

    def _after_turn(self, turn: TurnReport) -> None:
        tally = self._tally
        failure = None if turn.failure is None else _problem(turn.failure)
        if failure is not None:
            self._notify(JobFailed(self._clock.now(), "project", failure))
        self._tally = evolve(
            tally,
            projected=tally.projected + turn.events,
            caught_up_at=self._clock.now() if turn.caught_up else tally.caught_up_at,
            turn_failure=failure,
            partitions=turn.owned,
        )

    def _after_jobs(self, report: MaintenanceReport) -> None:
        tally = self._tally if report.held else evolve(self._tally, job_failure=None)
        now = self._clock.now()
        if isinstance(report.purged, VaultPurged):
            purged = report.purged
            tally = evolve(
                tally,
                purged_bodies=tally.purged_bodies + purged.bodies,
                purged_at=now if purged.compacted else tally.purged_at,
                job_failure=None if purged.compacted else WorkerProblem.COMPACTION_INCOMPLETE,
            )
            self._notify(VaultPurgedNotice(now, purged.bodies, purged.compacted))
        elif report.purged is not None:
            tally = evolve(tally, job_failure=_problem(report.purged))
            self._notify(JobFailed(now, "purge", _problem(report.purged)))
        if isinstance(report.swept, SweepReport):
            tally = evolve(tally, swept_at=now)
            counts = report.swept.counts
            self._notify(LogSwept(now, counts.log_entries, counts.runs))
        elif report.swept is not None:
            tally = evolve(tally, job_failure=_problem(report.swept))
            self._notify(JobFailed(now, "sweep", _problem(report.swept)))
        self._tally = tally

    def _record(self, state: WorkerState) -> WorkerBeat:
        tally = self._tally
        return WorkerBeat(
            owner=self._owner,
            state=state,
            started_at=tally.started_at,
            beat_at=self._clock.now(),
            partitions=tally.partitions if state is WorkerState.RUNNING else (),
            maintenance=self._maintenance.held and state is WorkerState.RUNNING,
            projected_events=tally.projected,
            caught_up_at=tally.caught_up_at,
            purged_at=tally.purged_at,
            purged_bodies=tally.purged_bodies,
            swept_at=tally.swept_at,
            failure=tally.turn_failure or tally.job_failure,
        )

    def _beat(self, state: WorkerState) -> WorkerBeat:
        beat = self._record(state)
        self._last_beat = beat
        if not isinstance(self._health.record(beat), Success):
            # Said at the next record (this one could not be written).
            self._tally = evolve(self._tally, turn_failure=WorkerProblem.AUDIT_UNAVAILABLE)
        return beat

    def _beat_due(self) -> bool:
        last = self._last_beat
        if last is None:
            return True
        now = self._clock.now()
        if now - last.beat_at >= self._settings.heartbeat_interval:
            return True
        current = self._record(WorkerState.RUNNING)
        return (
            current.partitions,
            current.maintenance,
            current.failure,
            current.purged_at,
            current.swept_at,
        ) != (last.partitions, last.maintenance, last.failure, last.purged_at, last.swept_at)

    def _wait_after(self, turn: TurnReport) -> float:
        settings = self._settings
        if turn.failure is not None:
            wait = settings.retry_interval
        elif turn.events == 0 or turn.caught_up:
            wait = settings.poll_interval
        else:
            return 0.0
        now = self._clock.now()
        due = [
            moment
            for moment in (self._maintenance.next_due(), self._next_beat())
            if moment is not None
        ]
        if due:
            wait = min(wait, max(timedelta(0), min(due) - now))
        return wait.total_seconds()

    def _next_beat(self) -> datetime | None:
        last = self._last_beat
        return None if last is None else last.beat_at + self._settings.heartbeat_interval
