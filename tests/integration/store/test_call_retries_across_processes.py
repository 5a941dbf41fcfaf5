"""Retries and abandoned calls across worker processes sharing one store (SQLite file, Redis):
a retry in another process gets the original observation and runs nothing; two processes
sending the same call at once run it once; a retry of a call another process is still running
waits for its result; a call whose worker was killed is closed ABANDONED by the next call."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.managers import SyncManager
from pathlib import Path

import pytest

from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.invocation import Failed
from tests.support.call_workers import WorkerStore, call_after, call_held
from tests.support.calls import args, call_world

pytestmark = pytest.mark.integration

SPAWN = multiprocessing.get_context("spawn")


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    with ProcessPoolExecutor(2, mp_context=SPAWN) as workers:
        yield workers


@pytest.fixture(scope="module")
def manager() -> Iterator[SyncManager]:
    with SPAWN.Manager() as shared:
        yield shared


@pytest.fixture(params=["sqlite", "redis"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> WorkerStore:
    timing: dict[str, float] = {"call_timeout_seconds": 1.0, "abandon_grace_seconds": 0.5}
    if request.param == "redis":
        return WorkerStore(
            "redis",
            url=request.getfixturevalue("redis_url"),
            prefix=request.getfixturevalue("key_prefix"),
            call_timeout_seconds=timing["call_timeout_seconds"],
            abandon_grace_seconds=timing["abandon_grace_seconds"],
        )
    return WorkerStore(
        "sqlite",
        path=str(tmp_path / "store.db"),
        call_timeout_seconds=timing["call_timeout_seconds"],
        abandon_grace_seconds=timing["abandon_grace_seconds"],
    )


def _new_run(where: WorkerStore) -> str:
    with call_world(where.settings()) as world:
        return world.run_id


def test_a_retry_in_another_process_gets_the_original_and_runs_nothing(
    where: WorkerStore, pool: ProcessPoolExecutor, manager: SyncManager
) -> None:
    run_id = _new_run(where)
    first, searches = pool.submit(
        call_after, where, run_id, "call-1", args("pool exhausted"), manager.Barrier(1)
    ).result(timeout=120)
    assert first["status"] == "READY"
    assert searches == 1
    with call_world(where.settings(), run_id=run_id) as world:
        events = world.event_types()
        assert world.call("call-1", args("pool exhausted")) == first
        assert world.backend.searches == 0
        assert world.event_types() == events


def test_the_same_call_sent_by_two_processes_at_once_runs_once(
    where: WorkerStore, pool: ProcessPoolExecutor, manager: SyncManager
) -> None:
    run_id = _new_run(where)
    barrier = manager.Barrier(2)
    futures = [
        pool.submit(call_after, where, run_id, "call-1", args("pool exhausted"), barrier)
        for _ in range(2)
    ]
    results = [future.result(timeout=120) for future in futures]
    assert sum(searches for _, searches in results) == 1
    assert results[0][0] == results[1][0]
    assert results[0][0]["status"] == "READY"
    with call_world(where.settings(), run_id=run_id) as world:
        assert world.event_types().count("TOOL_CALL_RESERVED") == 1
        assert world.log().progress.violations == 0


def test_one_id_with_two_arguments_at_once_runs_one_and_refuses_the_other(
    where: WorkerStore, pool: ProcessPoolExecutor, manager: SyncManager
) -> None:
    run_id = _new_run(where)
    barrier = manager.Barrier(2)
    futures = [
        pool.submit(call_after, where, run_id, "call-1", args(query), barrier)
        for query in ("pool exhausted", "certificate expiry")
    ]
    observations = sorted(
        (future.result(timeout=120)[0] for future in futures), key=lambda o: str(o["status"])
    )
    assert [o["status"] for o in observations] == ["READY", "REFUSED"]
    assert observations[1]["error_code"] == "DUPLICATE_TOOL_CALL_ID"


def test_a_retry_waits_for_the_call_another_process_is_running(
    where: WorkerStore, pool: ProcessPoolExecutor, manager: SyncManager
) -> None:
    run_id = _new_run(where)
    started, release = manager.Event(), manager.Event()
    running = pool.submit(
        call_held, where, run_id, "call-1", args("pool exhausted"), started, release
    )
    assert started.wait(timeout=60)
    with call_world(where.settings(), run_id=run_id) as world:
        timer_start = time.monotonic()
        later = threading.Timer(0.3, release.set)
        later.start()
        retry = world.call("call-1", args("pool exhausted"))
        later.join()
        original = running.result(timeout=120)
        assert retry == original
        assert original["status"] == "READY"
        assert world.backend.searches == 0
        assert time.monotonic() - timer_start < 20


def test_a_call_whose_worker_was_killed_is_closed_by_the_next_call(
    where: WorkerStore, manager: SyncManager
) -> None:
    run_id = _new_run(where)
    started = manager.Event()
    worker = SPAWN.Process(
        target=call_held, args=(where, run_id, "orphan", args("pool exhausted"), started, None)
    )
    worker.start()
    assert started.wait(timeout=60)
    assert worker.pid is not None
    os.kill(worker.pid, signal.SIGKILL)
    worker.join(timeout=30)
    # the orphan counts as abandoned once its timeout and grace (1.5 s) have passed
    time.sleep(where.call_timeout_seconds + where.abandon_grace_seconds + 0.2)
    with call_world(where.settings(), run_id=run_id) as world:
        assert world.call("next", args("deadlock"))["status"] == "READY"
        orphan = world.log().invocation("orphan")
        assert isinstance(orphan, Failed)
        assert orphan.error_code is ToolBoundaryErrorCode.ABANDONED
        assert world.call("orphan", args("pool exhausted")) == {
            "tool_call_id": "orphan",
            "status": "ERROR",
            "error_code": "ABANDONED",
        }
