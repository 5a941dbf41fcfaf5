"""The facade's two thread pools stop the same way: every thread ends, later calls are refused."""

from __future__ import annotations

import asyncio
import threading

import pytest
from returns.result import Result, Success

from factledger.application.backend_runner import BackendRunner
from factledger.application.worker_pool import WorkerPool
from factledger.domain.tool_result import BackendFailure


def _echo(timeout_seconds: float, /) -> Result[str, BackendFailure]:
    return Success("done")


def _ended(before: set[threading.Thread]) -> bool:
    """Whether every thread started since ``before`` was taken has ended."""
    started = set(threading.enumerate()) - before
    for thread in started:
        thread.join(timeout=5)
    return not any(thread.is_alive() for thread in started)


def test_a_shut_down_backend_runner_ends_its_threads_and_refuses_later_calls() -> None:
    before = set(threading.enumerate())
    runner = BackendRunner(workers=2)
    assert runner.run(_echo, 5.0) == Success("done")
    runner.shutdown()
    assert _ended(before)
    with pytest.raises(RuntimeError, match="shut down"):
        runner.run(_echo, 5.0)


def test_a_shut_down_worker_pool_ends_its_threads_and_refuses_later_calls() -> None:
    before = set(threading.enumerate())
    pool = WorkerPool(2, name="factledger-test-pool")

    async def twice() -> list[int]:
        return list(await asyncio.gather(pool.run(lambda: 1), pool.run(lambda: 2)))

    assert asyncio.run(twice()) == [1, 2]
    pool.shutdown()
    assert _ended(before)
    with pytest.raises(RuntimeError, match="shut down"):
        asyncio.run(pool.run(lambda: 3))
