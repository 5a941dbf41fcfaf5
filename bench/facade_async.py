"""AsyncHarness against Harness: one ``lookup_knowledge`` call, the same harness, in one run.

    .venv/bin/python bench/facade_async.py [--calls N] [--rounds R] [--store memory|redis]
        [--redis-url URL]

Both facades drive the same wired harness (the in-process store by default) with the knowledge
projector over a raw result captured from the real FTS5 backend, so what differs is only the
async facade's own cost. It is measured with the tool declared non-blocking (its backend
answers from memory: on the in-process store the async facade runs the call on its loop, ADR
0035), with the same tool declared as the built-in one is (its backend may block: the call is
handed to a worker thread and back), and, for scale, with the real FTS5 backend over the demo's
runbooks (blocking, so handed off too). Rounds alternate the two facades (sync, async,
sync, async...) so that both see the same machine noise; each reports its median per call and
the ratio, and the figure is the median of the rounds' ratios. With ``--store redis`` it also
times one bare Redis round trip three ways — the blocking client inline, the blocking client
through the async facade's worker pool, and ``redis.asyncio`` — the measurement behind running
the Redis store through the pool (ADR 0021).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._redis import redis_for_bench
from bench.interceptor import CALLS_PER_RUN, CapturedBackend, captured_raw
from factledger import AsyncHarness, Harness, RunBudget, Settings, build_harness
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.knowledge.fts_backend import SqliteKnowledgeBackend
from factledger.application.tools.knowledge import KnowledgeTool
from factledger.application.worker_pool import WorkerPool


def _arguments(index: int, previous: str | None) -> str:
    evaluation = None if previous is None else {"tool_call_id": previous, "evaluation": "GAINED"}
    query = f"card-gateway pool exhausted {index}"
    return json.dumps({"previous_observation": evaluation, "input": {"query": query}})


def _new_run(harness: Harness) -> str:
    return harness.start_run(
        question="bench", service="card-gateway", budget=RunBudget(tool_calls=CALLS_PER_RUN + 1)
    )


def sync_round(harness: Harness, calls: int) -> list[float]:
    timings: list[float] = []
    run_id, previous = "", None
    for index in range(calls):
        if index % CALLS_PER_RUN == 0:
            run_id, previous = _new_run(harness), None
        arguments = _arguments(index, previous)
        begin = time.perf_counter()
        observation = harness.call_tool(run_id, f"c{index}", "lookup_knowledge", arguments)
        timings.append(time.perf_counter() - begin)
        assert observation.is_ready, observation
        previous = f"c{index}"
    return timings


async def async_round(harness: AsyncHarness, calls: int) -> list[float]:
    timings: list[float] = []
    run_id, previous = "", None
    for index in range(calls):
        if index % CALLS_PER_RUN == 0:
            run_id, previous = _new_run(harness.sync), None
        arguments = _arguments(index, previous)
        begin = time.perf_counter()
        observation = await harness.call_tool(run_id, f"c{index}", "lookup_knowledge", arguments)
        timings.append(time.perf_counter() - begin)
        assert observation.is_ready, observation
        previous = f"c{index}"
    return timings


DEMO_KNOWLEDGE = Path(str(files("factledger.adapters.demo").joinpath("knowledge")))


class InMemoryKnowledgeTool(KnowledgeTool):
    """The knowledge tool over a backend that answers from memory, declared so."""

    blocking = False


BACKENDS: dict[str, Callable[[], KnowledgeTool]] = {
    "answers from memory": lambda: InMemoryKnowledgeTool(CapturedBackend(captured_raw())),
    "may block": lambda: KnowledgeTool(CapturedBackend(captured_raw())),
    "the real FTS5 one (blocks)": lambda: KnowledgeTool(
        SqliteKnowledgeBackend.from_folder(DEMO_KNOWLEDGE).unwrap()
    ),
}
"""The three backends measured: how the tool is built for each."""


def compare(
    settings: Settings, calls: int, rounds: int, tool: KnowledgeTool
) -> list[tuple[float, float]]:
    with build_harness(settings, tools=[tool]) as harness:
        facade = AsyncHarness(harness)
        loop = asyncio.new_event_loop()
        sync_round(harness, 300)  # warm-up: imports, caches, the allocator, the pool
        loop.run_until_complete(async_round(facade, 300))
        results = []
        for _ in range(rounds):
            sync = statistics.median(sync_round(harness, calls))
            async_ = statistics.median(loop.run_until_complete(async_round(facade, calls)))
            results.append((sync * 1e6, async_ * 1e6))
        loop.close()
    return results


def redis_round_trips(url: str, count: int = 3000) -> tuple[float, float, float]:
    import redis
    import redis.asyncio

    client = redis.Redis.from_url(url)
    client.set("bench:rt", b"x")
    inline = []
    for _ in range(count):
        begin = time.perf_counter()
        client.get("bench:rt")
        inline.append(time.perf_counter() - begin)
    pool = WorkerPool(1)

    async def through_pool() -> list[float]:
        timings = []
        for _ in range(count):
            begin = time.perf_counter()
            await pool.run(lambda: client.get("bench:rt"))
            timings.append(time.perf_counter() - begin)
        return timings

    async def native() -> list[float]:
        aclient = redis.asyncio.Redis.from_url(url)
        timings = []
        for _ in range(count):
            begin = time.perf_counter()
            await aclient.get("bench:rt")
            timings.append(time.perf_counter() - begin)
        await aclient.aclose()
        return timings

    pooled = asyncio.run(through_pool())
    asynced = asyncio.run(native())
    pool.shutdown()
    client.close()
    return tuple(statistics.median(t) * 1e6 for t in (inline, pooled, asynced))  # type: ignore[return-value]  # three medians


def _report(args: argparse.Namespace, results: list[tuple[float, float]], backend: str) -> None:
    ratios = sorted(async_ / sync for sync, async_ in results)
    each = " / ".join(f"{s:.0f}→{a:.0f}" for s, a in results)
    print(f"call_tool, {args.store} store, lookup_knowledge, backend {backend}: "
          f"Harness {statistics.median(s for s, _ in results):.0f} µs, "
          f"AsyncHarness {statistics.median(a for _, a in results):.0f} µs, "
          f"ratio {statistics.median(ratios):.3f} (median of {len(results)} rounds of "
          f"{args.calls} calls each; rounds sync→async µs: {each})")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per round and facade")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--store", choices=["memory", "redis"], default="memory")
    parser.add_argument("--redis-url")
    args = parser.parse_args()
    if args.store == "redis":
        with redis_for_bench(args.redis_url) as url:
            settings = Settings(store=StoreSettings(kind="redis", url=url, key_prefix="bench"))
            measured = {
                name: compare(settings, args.calls, args.rounds, build())
                for name, build in BACKENDS.items()
            }
            trips = redis_round_trips(url)
    else:
        settings = Settings(store=StoreSettings(kind="memory"))
        measured = {
            name: compare(settings, args.calls, args.rounds, build())
            for name, build in BACKENDS.items()
        }
        trips = None
    for name, results in measured.items():
        _report(args, results, name)
    if trips is not None:
        inline, pooled, native = trips
        print(f"one Redis GET: blocking client inline {inline:.0f} µs, through the worker pool "
              f"{pooled:.0f} µs, redis.asyncio {native:.0f} µs (medians of 3000)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
