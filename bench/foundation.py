"""Foundation benchmark: boundary overhead, Redis round trips, fold and chain-verification rates.

    .venv/bin/python bench/foundation.py [--redis-url URL] [--calls N] [--out FILE]

Measures, in one run and side by side:
- ToolBoundary overhead per call with a no-op backend and projector on the in-memory store,
  with the backend run in the calling thread (``isolated=False``, for backends that enforce
  their own time limit) and on a worker thread (``isolated=True``, the default);
- the same on Redis over loopback, the number of request round trips per call (counted at the
  socket), and a bare ``XADD`` round trip measured in the same run as the reference;
- folding decoded events into run state (events/s);
- hash-chain verification over the stored bytes (events/s), beside re-encoding every event
  before hashing as the reference.
Medians of per-call timings; rates from whole passes. Nothing here asserts a target.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

import redis
import redis.connection
from returns.result import Result, Success

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._redis import redis_for_bench
from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.application.run_service import StartedRun
from factledger.application.tool_call import (
    BoundaryReady,
    RunContext,
    ToolCallRequestEnvelope,
)
from factledger.domain.budget import RunBudget
from factledger.domain.chain import StoredEvent, verify_chain
from factledger.domain.event_catalog import default_codec
from factledger.domain.events import RecordedEvent
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from factledger.domain.run_log import RunLog, fold
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import (
    BackendFailure,
    ProjectedToolResult,
    ProjectionFailure,
)

CALLS_PER_RUN = 20
GRANTS = (ToolGrant("noop", True),)


def noop_backend(_: float) -> Result[str, BackendFailure]:
    return Success("{}")


def noop_projector(_: str) -> Result[ProjectedToolResult, ProjectionFailure]:
    return Success(ProjectedToolResult({}, EvidenceStatus.NO_EVIDENCE))


class RoundTrips:
    """Counts requests written to Redis sockets (a pipeline or a script is one)."""

    def __init__(self) -> None:
        self.count = 0
        self._original = redis.connection.AbstractConnection.send_packed_command

        def counting(conn: object, command: object, check_health: bool = True) -> None:
            self.count += 1
            self._original(conn, command, check_health)  # type: ignore[arg-type,no-untyped-call]

        redis.connection.AbstractConnection.send_packed_command = counting  # type: ignore[method-assign]


def time_boundary(runtime: Runtime, calls: int, *, isolated: bool) -> list[float]:
    timings: list[float] = []
    run_id = ""
    for index in range(calls):
        if index % CALLS_PER_RUN == 0:
            started = runtime.run_service.start(
                budget=RunBudget(), tools=GRANTS, context=DiagnosisContext("bench")
            )
            assert isinstance(started, StartedRun)
            run_id = started.run_id
            runtime.runs.load(run_id)
        envelope = ToolCallRequestEnvelope(run_id, f"c{index}", "noop", "{}", True, True)
        begin = time.perf_counter()
        result = runtime.boundary.invoke(
            RunContext(run_id), envelope, noop_backend, noop_projector, isolated=isolated
        )
        timings.append(time.perf_counter() - begin)
        assert isinstance(result, BoundaryReady), result
    return timings


def median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def _us(samples: list[float]) -> str:
    return f"{median_us(samples):.0f} µs"


def bare_xadd(url: str, count: int) -> list[float]:
    client = redis.Redis.from_url(url)
    client.ping()
    timings = []
    for index in range(count):
        begin = time.perf_counter()
        client.xadd("bench:bare", {"d": b"x" * 300, "h": b"0" * 64}, id=f"{index + 1}-0")
        timings.append(time.perf_counter() - begin)
    client.delete("bench:bare")
    return timings


def recorded_log(runs: int, events_per_run: int) -> list[list[RecordedEvent]]:
    """Realistic run streams (start, then reserve/begin/ready triples) sealed by the codec."""
    runtime = build_runtime(Settings(store=StoreSettings(kind="memory")))
    logs: list[list[RecordedEvent]] = []
    calls = (events_per_run - 1) // 3
    for _ in range(runs):
        started = runtime.run_service.start(
            budget=RunBudget(tool_calls=calls + 1), tools=GRANTS, context=DiagnosisContext("b")
        )
        assert isinstance(started, StartedRun)
        for index in range(calls):
            envelope = ToolCallRequestEnvelope(
                started.run_id, f"c{index}", "noop", '{"query": "q"}', True, True
            )
            runtime.boundary.invoke(
                RunContext(started.run_id), envelope, noop_backend, noop_projector, isolated=False
            )
        stored = runtime.store.read_run(started.run_id).unwrap()
        logs.append([default_codec().decode(e.data, e.hash).unwrap() for e in stored])
    runtime.close()
    return logs


def fold_rate(logs: list[list[RecordedEvent]]) -> float:
    total = sum(len(log) for log in logs)
    best = float("inf")
    for _ in range(5):
        begin = time.perf_counter()
        for log in logs:
            fold(log, RunLog(log[0].run_id))
        best = min(best, time.perf_counter() - begin)
    return total / best


def verify_rates(logs: list[list[RecordedEvent]]) -> tuple[float, float]:
    stored = [[StoredEvent(e.run_id, e.sequence, e.data, e.hash) for e in log] for log in logs]
    total = sum(len(log) for log in stored)
    best = float("inf")
    for _ in range(5):
        begin = time.perf_counter()
        for events in stored:
            verify_chain(events)
        best = min(best, time.perf_counter() - begin)
    codec = default_codec()
    reencode = float("inf")
    for _ in range(2):
        begin = time.perf_counter()
        for events in stored:
            prev = "0" * 64
            for item in events:
                decoded = codec.decode(item.data, item.hash).unwrap()
                resealed = codec.seal(
                    decoded.run_id, decoded.sequence, prev, decoded.occurred_at, [decoded.event]
                )[0]
                prev = resealed.hash
        reencode = min(reencode, time.perf_counter() - begin)
    return total / best, total / reencode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", help="an existing Redis (default: start a throwaway one)")
    parser.add_argument("--calls", type=int, default=4000)
    parser.add_argument("--out", type=Path, help="also write the report (Markdown) here")
    args = parser.parse_args()

    lines = [
        "# Foundation benchmark",
        "",
        f"Machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
        f"Python {platform.python_version()}, {sys.platform}; command: "
        "`.venv/bin/python bench/foundation.py`",
        "",
        "| measure | value |",
        "|---|---|",
    ]

    def row(name: str, value: str) -> None:
        lines.append(f"| {name} | {value} |")
        print(f"{name:<58} {value}", flush=True)

    memory = build_runtime(Settings(store=StoreSettings(kind="memory")))
    time_boundary(memory, 400, isolated=False)
    inline = time_boundary(memory, args.calls, isolated=False)
    isolated = time_boundary(memory, args.calls, isolated=True)
    memory.close()
    row("boundary, in-memory store, backend inline: median", f"{median_us(inline):.0f} µs")
    row(
        "boundary, in-memory store, backend on a worker thread: median",
        f"{median_us(isolated):.0f} µs",
    )

    counter = RoundTrips()
    with redis_for_bench(args.redis_url) as url:
        reference = bare_xadd(url, args.calls)
        settings = Settings(store=StoreSettings(kind="redis", url=url, key_prefix="bench"))
        runtime = build_runtime(settings)
        time_boundary(runtime, 200, isolated=False)
        before = counter.count
        on_redis = time_boundary(runtime, args.calls, isolated=False)
        trips = counter.count - before
        runs = args.calls // CALLS_PER_RUN
        per_call = (trips - 2 * runs) / args.calls  # each run's start and first load excluded
        on_redis_isolated = time_boundary(runtime, args.calls, isolated=True)
        runtime.close()
    row("bare XADD round trip (reference): median", f"{median_us(reference):.0f} µs")
    row("boundary on Redis, backend inline: median", f"{median_us(on_redis):.0f} µs")
    row(
        "boundary on Redis, backend on a worker thread: median",
        f"{median_us(on_redis_isolated):.0f} µs",
    )
    row("boundary on Redis / bare XADD", f"{median_us(on_redis) / median_us(reference):.1f}×")
    row("Redis round trips per call", f"{per_call:.2f}")

    logs = recorded_log(runs=300, events_per_run=61)
    row("fold decoded events into run state", f"{fold_rate(logs):,.0f} events/s")
    verified, reencoded = verify_rates(logs)
    row("verify hash chain over stored bytes", f"{verified:,.0f} events/s")
    row("re-encode then hash (reference)", f"{reencoded:,.0f} events/s")

    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
