"""AsyncHarness: every operation of Harness, awaited on real event loops, never blocking them."""

from __future__ import annotations

import asyncio
import inspect
import json
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import anyio
import pytest

from factledger import (
    AsyncHarness,
    Harness,
    HarnessError,
    HarnessErrorCode,
    ObservationStatus,
    Settings,
    build_harness,
)
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.memory.faults import FaultyEventStore
from tests.unit.facade.tools import EchoTool

_LIFECYCLE = {"close", "embedded", "parts"}
_ANSWERED_FROM_MEMORY = {"call_blocks"}  # plain methods on both facades: nothing to await


def _echo(text: str, previous: str | None = None) -> str:
    evaluation = None if previous is None else {"tool_call_id": previous, "evaluation": "GAINED"}
    return json.dumps({"previous_observation": evaluation, "input": {"text": text}})


def _bare(tool: EchoTool) -> Harness:
    return build_harness(Settings(store=StoreSettings(kind="memory")), tools=[tool])


def test_every_operation_of_harness_is_a_coroutine_of_async_harness_with_its_parameters() -> None:
    public = {
        name: member
        for name, member in inspect.getmembers(Harness)
        if not name.startswith("_") and name not in _LIFECYCLE
    }
    assert public, "no operations found"
    for name, member in public.items():
        twin = getattr(AsyncHarness, name, None)
        assert twin is not None, f"AsyncHarness lacks {name}"
        if isinstance(member, property):
            assert isinstance(twin, property), name
            continue
        if name in _ANSWERED_FROM_MEMORY:
            assert not inspect.iscoroutinefunction(twin), name
            assert inspect.signature(member) == inspect.signature(twin), name
            continue
        assert inspect.iscoroutinefunction(twin), f"AsyncHarness.{name} is not a coroutine"
        ours = list(inspect.signature(member).parameters.values())
        theirs = list(inspect.signature(twin).parameters.values())
        assert [(p.name, p.kind, p.default) for p in ours] == [
            (p.name, p.kind, p.default) for p in theirs
        ], name


def test_a_slow_backend_never_blocks_the_event_loop() -> None:
    tool = EchoTool(delay=0.3)

    async def scenario() -> tuple[int, float]:
        async with AsyncHarness(_bare(tool)) as harness:
            run_id = await harness.start_run(question="q", service="s")
            ticks = 0
            stop = asyncio.Event()

            async def ticker() -> None:
                nonlocal ticks
                while not stop.is_set():
                    ticks += 1
                    await asyncio.sleep(0.01)

            ticking = asyncio.create_task(ticker())
            began = time.perf_counter()
            observation = await harness.call_tool(run_id, "c1", "echo_evidence", _echo("hello"))
            took = time.perf_counter() - began
            stop.set()
            await ticking
            assert observation.status is ObservationStatus.READY
            return ticks, took

    ticks, took = asyncio.run(scenario())
    assert took >= 0.3
    assert ticks >= 10, f"the loop ticked only {ticks} times during a 0.3 s call"
    assert tool.threads
    assert all(name.startswith("factledger") for name in tool.threads)


def test_concurrent_calls_in_many_runs_all_complete_on_a_bounded_pool() -> None:
    tool = EchoTool(delay=0.05)

    async def scenario() -> list[ObservationStatus]:
        async with AsyncHarness(_bare(tool), workers=4) as harness:
            runs = [await harness.start_run(question="q", service="s") for _ in range(12)]
            observations = await asyncio.gather(
                *(harness.call_tool(run, "c1", "echo_evidence", _echo("x")) for run in runs)
            )
            return [observation.status for observation in observations]

    began = time.perf_counter()
    statuses = asyncio.run(scenario())
    assert statuses == [ObservationStatus.READY] * 12
    assert time.perf_counter() - began < 12 * 0.05  # they overlapped, four at a time
    assert tool.calls == 12


def test_an_async_passthrough_is_awaited_on_the_callers_loop() -> None:
    async def host_tool(name: str, arguments_json: str) -> str:
        await asyncio.sleep(0)
        return f"host handled {name}"

    async def scenario() -> object:
        async with AsyncHarness(_bare(EchoTool())) as harness:
            run_id = await harness.start_run(question="q", service="s")
            return await harness.call_tool(run_id, "c1", "weather", "{}", passthrough=host_tool)

    assert asyncio.run(scenario()) == "host handled weather"


def test_errors_come_back_as_the_same_harness_errors() -> None:
    async def scenario() -> HarnessErrorCode:
        async with AsyncHarness(_bare(EchoTool())) as harness:
            with pytest.raises(HarnessError) as raised:
                await harness.start_run(start=datetime(2026, 1, 1))  # no time zone
            return raised.value.code

    assert asyncio.run(scenario()) is HarnessErrorCode.INVALID_INPUT


def test_a_cancelled_caller_leaves_the_pool_working() -> None:
    tool = EchoTool(delay=0.2)

    async def scenario() -> ObservationStatus:
        async with AsyncHarness(_bare(tool), workers=1) as harness:
            run_id = await harness.start_run(question="q", service="s")
            task = asyncio.create_task(harness.call_tool(run_id, "c1", "echo_evidence", _echo("a")))
            await asyncio.sleep(0.05)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            later = await harness.call_tool(run_id, "c2", "echo_evidence", _echo("b", "c1"))
            return later.status

    assert asyncio.run(scenario()) is ObservationStatus.READY


def test_it_runs_under_anyio_on_asyncio_and_releases() -> None:
    async def scenario() -> str:
        async with AsyncHarness(_bare(EchoTool())) as harness:
            start, end = datetime(2026, 3, 14, 9, tzinfo=UTC), datetime(2026, 3, 14, 10, tzinfo=UTC)
            run_id = await harness.start_run(question="q", service="s", start=start, end=end)
            first = await harness.call_tool(run_id, "c1", "echo_evidence", _echo("pool exhausted"))
            assert first.is_ready
            claim = "echoed pool exhausted"
            draft = {
                "conclusion": claim,
                "analyses": [
                    {"kind": "SUPPORTING_EVIDENCE", "claim": claim, "tool_call_ids": ["c1"]}
                ],
            }
            result = await harness.release(run_id, json.dumps(draft))
            assert (await harness.released(run_id)) == result
            assert [s.status for s in await harness.statuses(run_id)][-1] == "DONE"
            return result.outcome.value

    assert anyio.run(scenario, backend="asyncio") == "SUCCESS"


class _InMemoryEcho(EchoTool):
    """An echo whose backend computes from memory and never waits on I/O."""

    blocking = False


def _threads_of_a_call(tool: EchoTool, harness: Harness) -> tuple[str, str]:
    async def scenario() -> tuple[str, str]:
        async with AsyncHarness(harness) as facade:
            run_id = await facade.start_run(question="q", service="s")
            observation = await facade.call_tool(run_id, "c1", tool.name, _echo("hello"))
            assert observation.status is ObservationStatus.READY
            return next(iter(tool.threads)), threading.current_thread().name

    return asyncio.run(scenario())


def test_a_call_that_cannot_block_runs_on_the_loop_without_a_thread_hand_off() -> None:
    tool = _InMemoryEcho()
    backend_thread, loop_thread = _threads_of_a_call(tool, _bare(tool))
    assert backend_thread == loop_thread


def test_a_tool_that_may_block_is_handed_to_a_thread_even_on_the_in_process_store() -> None:
    tool = EchoTool()
    backend_thread, loop_thread = _threads_of_a_call(tool, _bare(tool))
    assert backend_thread != loop_thread


def test_a_store_that_does_io_hands_even_a_non_blocking_tool_to_a_thread(tmp_path: Path) -> None:
    tool = _InMemoryEcho()
    settings = Settings(store=StoreSettings(kind="sqlite", path=str(tmp_path / "events.db")))
    backend_thread, loop_thread = _threads_of_a_call(tool, build_harness(settings, tools=[tool]))
    assert backend_thread != loop_thread


def test_a_wrapped_store_is_never_taken_for_the_in_process_one() -> None:
    tool = _InMemoryEcho()
    harness = build_harness(
        Settings(store=StoreSettings(kind="memory")),
        tools=[tool],
        wrap_store=FaultyEventStore,
    )
    assert harness.call_blocks(tool.name)
    backend_thread, loop_thread = _threads_of_a_call(tool, harness)
    assert backend_thread != loop_thread


def test_call_blocks_answers_for_every_tool_and_for_names_that_are_no_tool() -> None:
    quiet, waiting = _InMemoryEcho(), EchoTool(name="echo_waiting")
    harness = build_harness(Settings(store=StoreSettings(kind="memory")), tools=[quiet, waiting])
    assert not harness.call_blocks(quiet.name)
    assert harness.call_blocks(waiting.name)
    assert harness.call_blocks("no_such_tool")  # a passthrough is the host's: never assumed quick
    assert not AsyncHarness(harness).call_blocks(quiet.name)
