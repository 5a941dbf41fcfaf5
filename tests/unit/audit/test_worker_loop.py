"""The worker loop on the in-memory store, driven by a manual clock: its stop signal's wait
moves the clock, so every schedule is exact and nothing sleeps."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from returns.result import Success

from factledger.adapters.audit.worker_wiring import WorkerRuntime, build_worker, read_worker_health
from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import AuditSettings, StoreSettings, WorkerSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.memory.faults import FaultyPayloadVault, VaultOperation
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.application.run_service import StartedRun
from factledger.application.worker.health import HealthStatus, WorkerHealth
from factledger.application.worker.notices import (
    JobFailed,
    VaultPurgedNotice,
    WorkerNotice,
    WorkerStarted,
    WorkerStopped,
)
from factledger.domain.budget import RunBudget
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from factledger.ports.partition_leases import MAINTENANCE_LEASE
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadVault, PayloadWrite
from factledger.ports.worker_health import WorkerProblem, WorkerState
from tests.support.workers import call_once

T0 = datetime(2026, 5, 1, 12, tzinfo=UTC)
PURGE = timedelta(seconds=30)


class ClockedStop:
    """A stop signal whose wait moves the manual clock; set once ``until`` holds."""

    def __init__(self, clock: ManualClock, until: Callable[[], bool]) -> None:
        self._clock = clock
        self._until = until
        self._set = False
        self.waits: list[float] = []

    def is_set(self) -> bool:
        return self._set or self._until()

    def wait(self, timeout: float | None = None) -> bool:
        assert timeout is not None
        self.waits.append(timeout)
        self._clock.advance(timedelta(seconds=timeout))
        self._set = self._set or self._until()
        return self._set


def _settings(tmp_path: Path) -> Settings:
    return Settings(
        store=StoreSettings(kind="memory", partitions=4),
        audit=AuditSettings(url=f"sqlite:///{(tmp_path / 'audit.db').as_posix()}"),
        worker=WorkerSettings(
            purge_interval_seconds=PURGE.total_seconds(),
            retention_interval_seconds=600,
            poll_interval_seconds=0.5,
            heartbeat_interval_seconds=5,
            lease_ttl_seconds=10,
        ),
    )


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def runtime(tmp_path: Path, clock: ManualClock) -> Iterator[Runtime]:
    built = build_runtime(_settings(tmp_path), clock=clock)
    yield built
    built.close()


def _worker(
    runtime: Runtime, clock: ManualClock, notices: list[WorkerNotice], vault: PayloadVault
) -> WorkerRuntime:
    built = build_worker(
        runtime.settings, runtime.store, vault, clock, owner="w1", notify=notices.append
    )
    assert isinstance(built, Success), built
    worker: WorkerRuntime = built.unwrap()
    return worker


def _memory(runtime: Runtime) -> MemoryPayloadVault:
    assert isinstance(runtime.vault, MemoryPayloadVault)
    return runtime.vault


def test_a_body_is_deleted_by_the_first_purge_after_it_expires_within_one_interval(
    runtime: Runtime, clock: ManualClock
) -> None:
    vault = _memory(runtime)
    expires = T0 + timedelta(seconds=95)
    key = PayloadKey("run-a", "c1", PayloadPart.RAW)
    vault.put([PayloadWrite(key, b"sk_live_planted", expires)])
    notices: list[WorkerNotice] = []
    built = _worker(runtime, clock, notices, vault)
    stop = ClockedStop(clock, lambda: b"sk_live_planted" not in b"".join(vault.held_bodies()))
    built.worker.run(stop)
    built.close()
    purges = [n for n in notices if isinstance(n, VaultPurgedNotice)]
    deleting = [n for n in purges if n.bodies == 1]
    assert len(deleting) == 1
    assert expires <= deleting[0].at <= expires + PURGE
    before = [n.at for n in purges if n.at < deleting[0].at]
    assert all(b - a == PURGE for a, b in itertools.pairwise(before))
    assert max(stop.waits) <= 0.5, "the loop never oversleeps its poll interval"


def test_the_worker_keeps_the_audit_caught_up(runtime: Runtime, clock: ManualClock) -> None:
    runs = []
    for _ in range(3):
        started = runtime.run_service.start(
            budget=RunBudget(),
            tools=(ToolGrant("lookup_knowledge", True),),
            context=DiagnosisContext("payments"),
        )
        assert isinstance(started, StartedRun)
        assert call_once(runtime, started.run_id, "c1") == "READY"
        runs.append(started.run_id)
    notices: list[WorkerNotice] = []
    built = _worker(runtime, clock, notices, runtime.vault)

    def caught_up() -> bool:
        for run_id in runs:
            held = built.audit.store.read_run(run_id).unwrap()
            head = runtime.store.read_head(run_id).unwrap()
            if held is None or head is None or held.run.last_sequence != head.sequence:
                return False
        return True

    def said_so() -> bool:
        beat = built.worker.last_beat
        return beat is not None and beat.caught_up_at is not None

    final = built.worker.run(ClockedStop(clock, said_so))
    assert caught_up()
    assert final.projected_events > 0
    assert final.caught_up_at is not None
    built.close()


def test_stopping_gives_up_every_lease_and_records_a_stopped_beat(
    runtime: Runtime, clock: ManualClock
) -> None:
    notices: list[WorkerNotice] = []
    built = _worker(runtime, clock, notices, runtime.vault)
    steps = iter(range(4))
    built.worker.run(ClockedStop(clock, lambda: next(steps, None) is None))
    leases = built.audit.leases
    for lease in (*range(4), MAINTENANCE_LEASE):
        assert leases.acquire(lease, "w2", timedelta(seconds=10)) == Success(True)
    assert leases.heartbeat("w2", timedelta(seconds=10)) == Success(1)
    beats = built.audit.health.beats(T0 - timedelta(days=1)).unwrap()
    assert [(b.owner, b.state, b.partitions, b.maintenance) for b in beats] == [
        ("w1", WorkerState.STOPPED, (), False)
    ]
    assert isinstance(notices[0], WorkerStarted)
    assert isinstance(notices[-1], WorkerStopped)
    built.close()


def test_a_vault_outage_is_reported_and_the_purge_is_tried_again_soon(
    runtime: Runtime, clock: ManualClock
) -> None:
    faulty = FaultyPayloadVault(runtime.vault)
    faulty.set_down(True, VaultOperation.PURGE)
    notices: list[WorkerNotice] = []
    built = _worker(runtime, clock, notices, faulty)
    failed_at: list[datetime] = []

    def after_two_failures() -> bool:
        failures = [n for n in notices if isinstance(n, JobFailed) and n.job == "purge"]
        if len(failures) == 2 and not failed_at:
            failed_at.append(clock.now())
            faulty.set_down(False)
        return any(isinstance(n, VaultPurgedNotice) for n in notices)

    built.worker.run(ClockedStop(clock, after_two_failures))
    failures = [n for n in notices if isinstance(n, JobFailed)]
    assert [f.problem for f in failures] == [WorkerProblem.STORE_UNAVAILABLE] * 2
    assert failures[1].at - failures[0].at == timedelta(seconds=1), "retried, not an interval later"
    purged = next(n for n in notices if isinstance(n, VaultPurgedNotice))
    assert purged.at - failures[1].at == timedelta(seconds=1)
    last = built.worker.last_beat
    assert last is not None
    assert last.failure is None
    assert last.purged_at == purged.at
    built.close()


def test_a_probe_reads_the_workers_health_from_settings_alone(
    runtime: Runtime, clock: ManualClock
) -> None:
    health = read_worker_health(runtime.settings, clock)
    assert isinstance(health, WorkerHealth)
    assert health.status is HealthStatus.DOWN  # nobody ran yet
    notices: list[WorkerNotice] = []
    built = _worker(runtime, clock, notices, runtime.vault)
    built.worker.step(ClockedStop(clock, lambda: False))
    health = read_worker_health(runtime.settings, clock)
    assert isinstance(health, WorkerHealth)
    assert [beat.owner for beat in health.live] == ["w1"]
    assert health.unfollowed == ()
    assert health.status is HealthStatus.OK, health.problems
    built.close()
