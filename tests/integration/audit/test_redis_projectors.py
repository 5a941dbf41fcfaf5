"""Projector workers on Redis: two processes split the partition logs with leases; when one is
killed its partitions are taken over once its leases lapse, and the audit rows end up exactly
those of a projection from scratch. Retention on Redis: PEXPIREAT when a run ends, XTRIM MINID
only behind every checkpoint and past the horizon."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from returns.result import Success

from factledger.adapters.audit.wiring import AuditRuntime, open_audit
from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import RetentionSettings
from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.redis.keys import RedisKeys
from factledger.adapters.system import SystemClock
from factledger.application.projections.projector import CatchUpReport
from factledger.application.projections.retention import SweepReport
from factledger.application.run_service import StartedRun
from factledger.domain.budget import RunBudget
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from factledger.ports.audit import AUDIT_PROJECTION
from tests.integration.audit.workers import follow, settings_for
from tests.support.processes import wait_until
from tests.support.workers import call_once
from tests.unit.audit.support import dump_rows, open_store

pytestmark = pytest.mark.integration

SPAWN = multiprocessing.get_context("spawn")
PARTITIONS = 4
WITHIN = 120
"""Seconds a worker gets to start, take leases and catch up: a spawned worker imports the
whole package first, which took over 30 s on a loaded two-core machine. The waits poll, so
a passing run waits no longer for it."""


def _record(runtime: Runtime, runs: int) -> list[str]:
    made = []
    for _ in range(runs):
        started = runtime.run_service.start(
            budget=RunBudget(),
            tools=(ToolGrant("lookup_knowledge", True),),
            context=DiagnosisContext("payments"),
        )
        assert isinstance(started, StartedRun)
        for n in range(2):
            assert call_once(runtime, started.run_id, f"call-{n}") == "READY"
        runtime.releases.release(started.run_id, None)
        made.append(started.run_id)
    return made


def _owners(client: redis.Redis, prefix: str) -> list[str | None]:
    owners = [client.get(f"{prefix}:projector:lease:{p}") for p in range(PARTITIONS)]
    return [o.decode() if isinstance(o, bytes) else o for o in owners]


def _caught_up(runtime: Runtime, audit: AuditRuntime, runs: list[str]) -> Callable[[], bool]:
    def check() -> bool:
        for run_id in runs:
            held = audit.store.read_run(run_id)
            head = runtime.store.read_head(run_id).unwrap()
            if not isinstance(held, Success) or held.unwrap() is None or head is None:
                return False
            row = held.unwrap()
            assert row is not None
            if row.run.last_sequence != head.sequence:
                return False
        return True

    return check


def test_a_killed_worker_s_partitions_are_taken_over_and_nothing_is_lost_or_doubled(
    redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    audit_url = f"sqlite:///{(tmp_path / 'audit.db').as_posix()}"
    settings = settings_for(redis_url, key_prefix, audit_url, PARTITIONS)
    runtime = build_runtime(settings)
    audit = open_audit(settings, runtime.store, SystemClock()).unwrap()
    client = redis.Redis.from_url(redis_url)
    stop_a, stop_b = SPAWN.Event(), SPAWN.Event()
    args = (redis_url, key_prefix, audit_url, PARTITIONS)
    worker_a = SPAWN.Process(target=follow, args=("worker-a", *args, stop_a))
    worker_b = SPAWN.Process(target=follow, args=("worker-b", *args, stop_b))
    try:
        runs = _record(runtime, 6)
        worker_a.start()
        wait_until(lambda: _owners(client, key_prefix) == ["worker-a"] * PARTITIONS, WITHIN, "a")
        wait_until(_caught_up(runtime, audit, runs), WITHIN, "worker a to catch up")
        worker_b.start()
        wait_until(
            lambda: (
                sorted(map(str, _owners(client, key_prefix))) == ["worker-a"] * 2 + ["worker-b"] * 2
            ),
            WITHIN,
            "the partitions to be split",
        )
        runs += _record(runtime, 4)
        assert worker_a.pid is not None
        os.kill(worker_a.pid, signal.SIGKILL)  # a crash: no lease is given back
        worker_a.join(10)
        runs += _record(runtime, 4)
        wait_until(lambda: _owners(client, key_prefix) == ["worker-b"] * PARTITIONS, WITHIN, "b")
        wait_until(_caught_up(runtime, audit, runs), WITHIN, "worker b to catch up")
        stop_b.set()
        worker_b.join(WITHIN)
        assert worker_b.exitcode == 0
        fresh = open_store(tmp_path / "fresh.db")
        again = open_audit(
            settings, runtime.store, SystemClock(), url=f"sqlite:///{tmp_path / 'fresh.db'}"
        )
        assert isinstance(again.unwrap().audit.catch_up(), CatchUpReport)
        assert dump_rows(audit.store) == dump_rows(fresh)
        assert len(dump_rows(fresh)["audit_runs"]) == 14
        again.unwrap().close()
        fresh.close()
    finally:
        for worker, stop in ((worker_a, stop_a), (worker_b, stop_b)):
            # Never set the event of a killed worker: it may have died waiting on it, and a
            # multiprocessing Event whose waiter died blocks ``set()`` for good.
            if worker.is_alive():
                stop.set()
                worker.join(10)
            if worker.is_alive() and worker.pid is not None:
                os.kill(worker.pid, signal.SIGKILL)
        client.close()
        audit.close()
        runtime.close()


def test_on_redis_a_run_s_keys_expire_after_it_ends_and_logs_are_trimmed_behind_checkpoints(
    redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    audit_url = f"sqlite:///{(tmp_path / 'audit.db').as_posix()}"
    settings = settings_for(redis_url, key_prefix, audit_url, PARTITIONS).model_copy(
        update={"retention": RetentionSettings(days=30)}
    )
    runtime = build_runtime(settings)
    client = redis.Redis.from_url(redis_url)
    keys = RedisKeys(key_prefix, PARTITIONS)
    clock = ManualClock(SystemClock().now())
    audit = open_audit(settings, runtime.store, clock).unwrap()
    try:
        (run_id,) = _record(runtime, 1)
        run_keys = keys.run(run_id)
        assert client.pexpiretime(run_keys.events) == -1  # no expiry while nobody projected it
        assert audit.expiry is not None
        assert audit.sweep is not None
        assert isinstance(audit.expiry.catch_up(), CatchUpReport)
        expires = client.pexpiretime(run_keys.events)
        ended = runtime.runs.events(run_id)
        assert isinstance(ended, tuple)
        end_ms = int(ended[-1].occurred_at.timestamp() * 1000)
        assert expires == end_ms + 30 * 86_400_000
        for key in (run_keys.meta, run_keys.unique, run_keys.counters, run_keys.commands):
            assert client.pexpiretime(key) == expires
        partition_log = keys.partition_log(keys.partition_of(run_id))
        length = client.xlen(partition_log)
        # Past the horizon, but the audit rows have not been projected: nothing is trimmed.
        clock.advance(timedelta(days=31))
        swept = audit.sweep.sweep()
        assert isinstance(swept, SweepReport)
        assert swept.counts.log_entries == 0
        assert client.xlen(partition_log) == length
        assert isinstance(audit.audit.catch_up(), CatchUpReport)
        checkpoint = audit.store.checkpoints(AUDIT_PROJECTION, PARTITIONS).unwrap()
        last = checkpoint[keys.partition_of(run_id)].position
        swept = audit.sweep.sweep()
        assert isinstance(swept, SweepReport)
        assert swept.counts.log_entries == length - 1  # everything before the checkpoint entry
        remaining = client.xrange(partition_log)
        assert isinstance(remaining, list)
        assert [entry_id for entry_id, _ in remaining] == [str(last).encode()]
        held = audit.store.read_run(run_id).unwrap()
        assert held is not None
        assert held.run.release_outcome is not None
    finally:
        client.close()
        audit.close()
        runtime.close()
