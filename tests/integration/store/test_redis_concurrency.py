"""Several worker processes act on one run in Redis at once: nothing is overspent or doubled."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from factledger.application.run_repository import StoreFailed
from factledger.application.run_service import StartedRun
from factledger.domain.budget import RunBudget
from factledger.domain.invocation import Failed, Ready
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from tests.support.workers import call_and_wait, call_many, cancel_run, redis_runtime

pytestmark = pytest.mark.integration

GRANTS = (ToolGrant("lookup_knowledge", True),)
SPAWN = multiprocessing.get_context("spawn")


def _start(url: str, prefix: str, budget: RunBudget) -> str:
    runtime = redis_runtime(url, prefix)
    try:
        started = runtime.run_service.start(
            budget=budget, tools=GRANTS, context=DiagnosisContext("payments")
        )
        assert isinstance(started, StartedRun), started
        return started.run_id
    finally:
        runtime.close()


def test_reservations_from_four_processes_succeed_exactly_budget_times(
    redis_url: str, key_prefix: str
) -> None:
    budget = 13
    run_id = _start(redis_url, key_prefix, RunBudget(tool_calls=budget))
    manager = SPAWN.Manager()
    barrier = manager.Barrier(4)
    with ProcessPoolExecutor(4, mp_context=SPAWN) as pool:
        futures = [
            pool.submit(
                call_many, redis_url, key_prefix, run_id, [f"w{w}-c{i}" for i in range(10)], barrier
            )
            for w in range(4)
        ]
        codes = [code for future in futures for code in future.result(timeout=120)]
    manager.shutdown()
    assert codes.count("READY") == budget
    assert codes.count("BUDGET_EXHAUSTED") == 40 - budget
    runtime = redis_runtime(redis_url, key_prefix)
    log = runtime.runs.load(run_id)
    assert not isinstance(log, StoreFailed)
    assert log.run is not None
    assert log.run.usage.tool_calls == budget
    assert sum(isinstance(i, Ready) for i in log.invocations.values()) == budget
    runtime.close()


def test_two_processes_racing_the_same_tool_call_ids_get_exactly_one_ready_each(
    redis_url: str, key_prefix: str
) -> None:
    run_id = _start(redis_url, key_prefix, RunBudget(tool_calls=100))
    ids = [f"shared-{i}" for i in range(25)]
    manager = SPAWN.Manager()
    barrier = manager.Barrier(2)
    with ProcessPoolExecutor(2, mp_context=SPAWN) as pool:
        futures = [
            pool.submit(call_many, redis_url, key_prefix, run_id, ids, barrier) for _ in range(2)
        ]
        first, second = (future.result(timeout=120) for future in futures)
    manager.shutdown()
    for a, b in zip(first, second, strict=True):
        assert sorted([a, b]) == ["DUPLICATE_TOOL_CALL_ID", "READY"]
    runtime = redis_runtime(redis_url, key_prefix)
    log = runtime.runs.load(run_id)
    assert not isinstance(log, StoreFailed)
    assert sorted(log.invocations) == sorted(ids)
    assert all(isinstance(i, Ready) for i in log.invocations.values())
    runtime.close()


def test_a_call_completing_after_another_process_cancelled_the_run_ends_as_error(
    redis_url: str, key_prefix: str
) -> None:
    run_id = _start(redis_url, key_prefix, RunBudget())
    manager = SPAWN.Manager()
    started, release = manager.Event(), manager.Event()
    with ProcessPoolExecutor(2, mp_context=SPAWN) as pool:
        slow = pool.submit(call_and_wait, redis_url, key_prefix, run_id, started, release)
        assert started.wait(timeout=60)
        assert pool.submit(cancel_run, redis_url, key_prefix, run_id).result(60) == "Committed"
        release.set()
        assert slow.result(timeout=60) == "RUN_NOT_ACTIVE"
    manager.shutdown()
    runtime = redis_runtime(redis_url, key_prefix)
    log = runtime.runs.load(run_id)
    assert not isinstance(log, StoreFailed)
    invocation = log.invocation("slow-call")
    assert isinstance(invocation, Failed)
    assert invocation.error_code.value == "RUN_NOT_ACTIVE"
    runtime.close()
