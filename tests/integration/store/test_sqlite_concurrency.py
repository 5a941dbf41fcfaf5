"""Several processes share one SQLite store file: one append wins per head, budgets are never
overspent, duplicate ids are refused, and runs persist from one process to the next."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.managers import SyncManager
from pathlib import Path

import pytest
from returns.result import Success

from factledger.application.run_repository import StoreFailed
from factledger.application.run_service import StartedRun
from factledger.domain.budget import RunBudget
from factledger.domain.chain import ChainIntact, verify_chain
from factledger.domain.invocation import Ready
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from tests.support import sqlite_workers
from tests.support.sqlite_workers import call_many, race_appends, sqlite_runtime

SPAWN = multiprocessing.get_context("spawn")
GRANTS = (ToolGrant("lookup_knowledge", True),)


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    """Four worker processes, spawned once for the module (spawning is the slow part)."""
    with ProcessPoolExecutor(4, mp_context=SPAWN) as workers:
        yield workers


@pytest.fixture(scope="module")
def manager() -> Iterator[SyncManager]:
    """Barriers shared with the workers."""
    with SPAWN.Manager() as shared:
        yield shared


def _start(path: str, budget: RunBudget) -> str:
    runtime = sqlite_runtime(path)
    try:
        started = runtime.run_service.start(
            budget=budget, tools=GRANTS, context=DiagnosisContext("payments")
        )
        assert isinstance(started, StartedRun), started
        return started.run_id
    finally:
        runtime.close()


def test_four_processes_racing_appends_on_one_run_win_each_head_exactly_once(
    tmp_path: Path, pool: ProcessPoolExecutor, manager: SyncManager
) -> None:
    path = str(tmp_path / "store.db")
    barrier = manager.Barrier(4)
    futures = [
        pool.submit(race_appends, path, "run-raced", worker, 40, barrier) for worker in range(4)
    ]
    wins = [sequence for future in futures for sequence in future.result(timeout=120)]
    assert sorted(wins) == list(range(1, len(wins) + 1)), "each head is won exactly once"
    assert len(wins) >= 40
    runtime = sqlite_runtime(path)
    try:
        stored = runtime.store.read_run("run-raced")
        head = runtime.store.read_head("run-raced")
        assert isinstance(stored, Success)
        assert isinstance(head, Success)
        assert verify_chain(stored.unwrap(), head.unwrap()) == ChainIntact(head.unwrap(), len(wins))
        partition = runtime.store.partition_of("run-raced")
        logged = runtime.store.read_log(partition, None, 10_000)
        assert isinstance(logged, Success)
        assert [entry.event.sequence for entry in logged.unwrap()] == list(range(1, len(wins) + 1))
    finally:
        runtime.close()


def test_reservations_from_four_processes_succeed_exactly_budget_times(
    tmp_path: Path, pool: ProcessPoolExecutor, manager: SyncManager
) -> None:
    path = str(tmp_path / "store.db")
    budget = 13
    run_id = _start(path, RunBudget(tool_calls=budget))
    barrier = manager.Barrier(4)
    futures = [
        pool.submit(call_many, path, run_id, [f"w{w}-c{i}" for i in range(10)], barrier)
        for w in range(4)
    ]
    codes = [code for future in futures for code in future.result(timeout=120)]
    assert codes.count("READY") == budget
    assert codes.count("BUDGET_EXHAUSTED") == 40 - budget
    runtime = sqlite_runtime(path)
    try:
        log = runtime.runs.load(run_id)
        assert not isinstance(log, StoreFailed)
        assert log.run is not None
        assert log.run.usage.tool_calls == budget
        assert sum(isinstance(i, Ready) for i in log.invocations.values()) == budget
    finally:
        runtime.close()


def test_two_processes_racing_the_same_tool_call_ids_get_exactly_one_ready_each(
    tmp_path: Path, pool: ProcessPoolExecutor, manager: SyncManager
) -> None:
    path = str(tmp_path / "store.db")
    run_id = _start(path, RunBudget(tool_calls=100))
    ids = [f"shared-{i}" for i in range(20)]
    barrier = manager.Barrier(2)
    futures = [pool.submit(call_many, path, run_id, ids, barrier) for _ in range(2)]
    first, second = (future.result(timeout=120) for future in futures)
    for a, b in zip(first, second, strict=True):
        assert sorted([a, b]) == ["DUPLICATE_TOOL_CALL_ID", "READY"]


def test_runs_written_by_one_process_are_listed_and_read_by_others(
    tmp_path: Path, pool: ProcessPoolExecutor
) -> None:
    path = str(tmp_path / "nested" / "store.db")
    first = pool.submit(sqlite_workers.record_run, path, 2).result(timeout=120)
    second = pool.submit(sqlite_workers.record_run, path, 1).result(timeout=120)
    listed = pool.submit(sqlite_workers.listed_runs, path).result(timeout=120)
    assert listed == [second, first]
    runtime = sqlite_runtime(path)
    try:
        log = runtime.runs.load(first)
        assert not isinstance(log, StoreFailed)
        assert sorted(log.invocations) == ["call-0", "call-1"]
        canonical = runtime.canonical.read(first, "call-1")
        assert canonical is not None
        assert not isinstance(canonical, StoreFailed)
        assert canonical.is_citable, "the bodies written by the other process are intact"
    finally:
        runtime.close()
