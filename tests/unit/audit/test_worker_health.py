"""What the workers' health records say for ``/healthz``: the assessment is a function of the
records and the time; the records round-trip through the audit database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from attrs import evolve
from returns.result import Success

from factledger.adapters.audit.database import open_audit_database
from factledger.adapters.audit.worker_health import SqlWorkerHealth
from factledger.adapters.memory.clock import ManualClock
from factledger.application.worker.health import (
    HealthProblem,
    HealthStatus,
    HealthThresholds,
    WorkerHealthView,
    assess,
)
from factledger.ports.audit import AuditUnavailable
from factledger.ports.worker_health import WorkerBeat, WorkerProblem, WorkerState
from tests.unit.audit.support import AuditFiles

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)
LIMITS = HealthThresholds(
    partitions=4,
    stale_after=timedelta(seconds=30),
    max_lag=timedelta(seconds=60),
    purge_overdue=timedelta(minutes=3),
)


def beat(owner: str, partitions: tuple[int, ...], **changes: object) -> WorkerBeat:
    healthy = WorkerBeat(
        owner=owner,
        state=WorkerState.RUNNING,
        started_at=NOW - timedelta(hours=1),
        beat_at=NOW - timedelta(seconds=2),
        partitions=partitions,
        maintenance=owner == "a",
        projected_events=10,
        caught_up_at=NOW - timedelta(seconds=1),
        purged_at=NOW - timedelta(seconds=40),
        purged_bodies=3,
    )
    return evolve(healthy, **changes)  # type: ignore[arg-type]  # the fields under test


def test_two_live_workers_covering_every_partition_are_ok() -> None:
    health = assess([beat("a", (0, 1)), beat("b", (2, 3))], NOW, LIMITS)
    assert (health.status, health.problems, health.unfollowed) == (HealthStatus.OK, (), ())
    assert health.lag_seconds == 1.0
    assert health.purge_age_seconds == 40.0
    assert health.to_json()["status"] == "OK"


def test_no_record_a_stale_one_or_a_stopped_one_is_down() -> None:
    stale = beat("a", (0, 1, 2, 3), beat_at=NOW - timedelta(seconds=31))
    stopped = beat("b", (), state=WorkerState.STOPPED)
    for beats in ([], [stale], [stopped], [stale, stopped]):
        health = assess(beats, NOW, LIMITS)
        assert (health.status, health.problems) == (
            HealthStatus.DOWN,
            (HealthProblem.NO_LIVE_WORKER,),
        )


def test_a_partition_without_a_live_follower_is_degraded() -> None:
    gone = beat("b", (2, 3), beat_at=NOW - timedelta(minutes=5))
    health = assess([beat("a", (0, 1)), gone], NOW, LIMITS)
    assert health.status is HealthStatus.DEGRADED
    assert health.problems == (HealthProblem.PARTITIONS_UNFOLLOWED,)
    assert health.unfollowed == (2, 3)


def test_lag_overdue_purge_and_failures_each_degrade() -> None:
    cases = {
        HealthProblem.PROJECTION_LAGGING: beat("a", (0, 1, 2, 3), caught_up_at=None),
        HealthProblem.PURGE_OVERDUE: beat("a", (0, 1, 2, 3), purged_at=NOW - timedelta(hours=1)),
        HealthProblem.WORKER_FAILING: beat(
            "a", (0, 1, 2, 3), failure=WorkerProblem.COMPACTION_INCOMPLETE
        ),
    }
    for problem, record in cases.items():
        health = assess([record], NOW, LIMITS)
        assert (health.status, health.problems) == (HealthStatus.DEGRADED, (problem,))
    lagging = assess(
        [beat("a", (0, 1, 2, 3), caught_up_at=NOW - timedelta(minutes=2))], NOW, LIMITS
    )
    assert lagging.problems == (HealthProblem.PROJECTION_LAGGING,)
    assert lagging.lag_seconds == 120.0


def test_a_purge_by_a_worker_that_stopped_since_still_counts() -> None:
    stopped = beat("old", (), state=WorkerState.STOPPED, purged_at=NOW - timedelta(seconds=10))
    live = beat("a", (0, 1, 2, 3), purged_at=None)
    assert assess([live, stopped], NOW, LIMITS).purge_age_seconds == 10.0


def test_records_round_trip_through_the_audit_database_and_the_view_reads_them(
    tmp_path: Path, audit_template: Path
) -> None:
    url = f"sqlite:///{AuditFiles(tmp_path, audit_template).fresh().as_posix()}"
    database = open_audit_database(url).unwrap()
    store = SqlWorkerHealth(database)
    first = beat("a", (0, 1, 2, 3), failure=WorkerProblem.STORE_UNAVAILABLE)
    assert store.record(first) == Success(None)
    assert store.beats(NOW - timedelta(minutes=1)) == Success((first,))
    replaced = evolve(first, beat_at=NOW, failure=None, partitions=(1, 3))
    assert store.record(replaced) == Success(None)
    assert store.beats(NOW - timedelta(minutes=1)) == Success((replaced,))
    assert store.beats(NOW + timedelta(seconds=1)) == Success(())
    view = WorkerHealthView(store, ManualClock(NOW), LIMITS)
    health = view.read()
    assert not isinstance(health, AuditUnavailable)
    assert health.status is HealthStatus.DEGRADED
    assert health.unfollowed == (0, 2)
    database.close()
