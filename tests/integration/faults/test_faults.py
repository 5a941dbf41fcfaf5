"""Faults with stated expectations: a worker killed mid-call, a release while Redis is down,
a backend that returns 50 MB, workers whose clocks disagree."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from datetime import UTC, datetime, timedelta

import psutil
import pytest
from returns.result import Result, Success

from factledger.adapters.memory.clock import ManualClock, SequentialIdFactory
from factledger.application.canonical_view import CanonicalInvocation
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.application.run_service import StartedRun
from factledger.application.tool_call import (
    BoundaryFailed,
    BoundaryReady,
    RunContext,
    ToolCallRequestEnvelope,
)
from factledger.domain.budget import RunBudget
from factledger.domain.chain import ChainIntact, verify_chain
from factledger.domain.invocation import Projecting
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from factledger.domain.tool_result import BackendFailure
from tests.support.redis_server import RedisProcess
from tests.support.release import draft
from tests.support.workers import begin_and_hang, keep_projector, redis_runtime

pytestmark = pytest.mark.integration

GRANTS = (ToolGrant("lookup_knowledge", True),)
SPAWN = multiprocessing.get_context("spawn")


WINDOW = DiagnosisContext(
    "card-gateway", datetime(2026, 3, 14, 9, tzinfo=UTC), datetime(2026, 3, 14, 10, tzinfo=UTC)
)


def _start(url: str, prefix: str) -> str:
    runtime = redis_runtime(url, prefix)
    started = runtime.run_service.start(budget=RunBudget(), tools=GRANTS, context=WINDOW)
    runtime.close()
    assert isinstance(started, StartedRun)
    return started.run_id


def test_a_worker_killed_between_projecting_and_ready_leaves_an_uncitable_call(
    redis_url: str, key_prefix: str
) -> None:
    run_id = _start(redis_url, key_prefix)
    manager = SPAWN.Manager()
    started = manager.Event()
    worker = SPAWN.Process(target=begin_and_hang, args=(redis_url, key_prefix, run_id, started))
    worker.start()
    assert started.wait(timeout=60)
    assert worker.pid is not None
    os.kill(worker.pid, signal.SIGKILL)
    worker.join(timeout=30)
    manager.shutdown()

    runtime = redis_runtime(redis_url, key_prefix)
    log = runtime.runs.load(run_id)
    assert not isinstance(log, StoreFailed)
    assert isinstance(log.invocation("orphan"), Projecting)
    record = runtime.canonical.read(run_id, "orphan")
    assert isinstance(record, CanonicalInvocation)
    assert not record.is_citable
    result = runtime.releases.release(
        run_id, json.dumps(draft("x", ("SUPPORTING_EVIDENCE", "claim", ["orphan"])))
    )
    assert isinstance(result, ReleaseResult)
    assert result.outcome.value in {"FALLBACK", "FAILED"}
    assert result.published_result is None
    decision = runtime.runs.load(run_id)
    assert not isinstance(decision, StoreFailed)
    assert decision.released is not None
    assert [issue.code.value for issue in decision.released.issues] == ["NOT_READY"]
    runtime.close()


def test_a_release_while_redis_is_down_is_never_a_success(
    redis_server: RedisProcess, key_prefix: str
) -> None:
    runtime = redis_runtime(redis_server.url, key_prefix)
    started = runtime.run_service.start(budget=RunBudget(), tools=GRANTS, context=WINDOW)
    assert isinstance(started, StartedRun)
    envelope = ToolCallRequestEnvelope(
        started.run_id, "c1", "lookup_knowledge", '{"query": "q"}', True, True
    )

    def backend(_: float) -> Result[str, BackendFailure]:
        return Success('{"evidence": ["x"]}')

    ready = runtime.boundary.invoke(RunContext(started.run_id), envelope, backend, keep_projector)
    assert isinstance(ready, BoundaryReady)
    redis_server.stop(hard=True)
    result = runtime.releases.release(
        started.run_id, json.dumps(draft("x", ("SUPPORTING_EVIDENCE", "x", ["c1"])))
    )
    assert isinstance(result, ReleaseResult)
    assert result.outcome.value == "FAILED"
    assert result.failure_code is not None
    assert result.failure_code.value == "STORE_UNAVAILABLE"
    runtime.close()


def test_a_backend_returning_50_mb_is_an_error_and_memory_stays_bounded(
    redis_url: str, key_prefix: str
) -> None:
    runtime = redis_runtime(redis_url, key_prefix)
    started = runtime.run_service.start(budget=RunBudget(), tools=GRANTS)
    assert isinstance(started, StartedRun)
    process = psutil.Process()
    before = process.memory_info().rss
    size = 50 * 1024 * 1024

    def huge(_: float) -> Result[str, BackendFailure]:
        return Success('"' + "x" * size + '"')

    envelope = ToolCallRequestEnvelope(
        started.run_id, "big", "lookup_knowledge", '{"query": "q"}', True, True
    )
    result = runtime.boundary.invoke(RunContext(started.run_id), envelope, huge, keep_projector)
    assert isinstance(result, BoundaryFailed)
    assert result.code.value == "RAW_RESPONSE_TOO_LARGE"
    grown = process.memory_info().rss - before
    assert grown < 4 * size, f"RSS grew by {grown} bytes for a {size}-byte response"
    record = runtime.canonical.read(started.run_id, "big")
    assert isinstance(record, CanonicalInvocation)
    assert record.raw_response is None
    runtime.close()


def test_workers_whose_clocks_disagree_still_order_by_sequence(
    redis_url: str, key_prefix: str
) -> None:
    runtime = redis_runtime(redis_url, key_prefix)
    started = runtime.run_service.start(budget=RunBudget(deadline_seconds=3600), tools=GRANTS)
    assert isinstance(started, StartedRun)
    run_id = started.run_id
    now = runtime.clock.now()
    ahead, behind = ManualClock(now + timedelta(minutes=5)), ManualClock(now - timedelta(minutes=5))
    workers = [
        RunRepository(runtime.store, runtime.runs.codec, clock, SequentialIdFactory(name))
        for name, clock in (("ahead", ahead), ("behind", behind))
    ]
    from factledger.application.backend_runner import BackendRunner
    from factledger.application.tool_boundary import ToolBoundary

    def backend(_: float) -> Result[str, BackendFailure]:
        return Success('{"evidence": ["x"]}')

    for index in range(6):
        repository = workers[index % 2]
        clock = ahead if index % 2 == 0 else behind
        boundary = ToolBoundary(repository, clock, BackendRunner())
        envelope = ToolCallRequestEnvelope(
            run_id, f"c{index}", "lookup_knowledge", '{"query": "q"}', True, True
        )
        outcome = boundary.invoke(
            RunContext(run_id), envelope, backend, keep_projector, isolated=False
        )
        assert isinstance(outcome, BoundaryReady), outcome
    events = runtime.runs.events(run_id)
    assert not isinstance(events, StoreFailed)
    assert [e.sequence for e in events] == list(range(1, len(events) + 1))
    times = [e.occurred_at for e in events]
    assert times != sorted(times)  # the clocks disagree; the order is the sequence's
    head = runtime.store.read_head(run_id).unwrap()
    assert isinstance(verify_chain(runtime.store.read_run(run_id).unwrap(), head), ChainIntact)
    runtime.close()
