"""Interceptor + boundary + views for one ``lookup_knowledge`` call, backend time excluded.

    .venv/bin/python bench/interceptor.py [--calls N] [--rounds R] [--store memory|sqlite|redis]
        [--synchronous FULL|NORMAL] [--redis-url URL]

The backend returns a raw result captured once from the real FTS5 backend over the bundled
runbooks, so what is timed is everything the harness adds: strict parsing, the progress
protocol, the boundary's phases and appends, the real knowledge projector, the dual-source check
and the observation. Each call carries the evaluation of the previous one (the protocol's normal
path). Each round builds a fresh runtime; reports the median of the rounds' medians (with every
round's, since a shared machine's noise moves single runs by several per cent) and the p99 over
all calls.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from importlib.resources import files
from pathlib import Path

from returns.result import Result, Success

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._redis import redis_for_bench
from factledger.adapters.bootstrap import build_runtime
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.knowledge.fts_backend import SqliteKnowledgeBackend
from factledger.application.interceptor import Observed
from factledger.application.run_service import StartedRun
from factledger.application.tools.knowledge import KnowledgeTool
from factledger.domain.budget import RunBudget
from factledger.domain.run_events import DiagnosisContext
from factledger.domain.tool_result import BackendFailure

CALLS_PER_RUN = 20


class CapturedBackend:
    """Answers every search with one raw result captured from the real backend."""

    def __init__(self, raw: str) -> None:
        self._raw = raw

    def search(self, query: str, limit: int, timeout_seconds: float) -> Result[str, BackendFailure]:
        return Success(self._raw)


def captured_raw() -> str:
    folder = Path(str(files("factledger.adapters.demo").joinpath("knowledge")))
    backend = SqliteKnowledgeBackend.from_folder(folder).unwrap()
    raw: str = backend.search("card-gateway GW-504 pool exhausted", 8, 5.0).unwrap()
    backend.close()
    return raw


def run(settings: Settings, calls: int) -> list[float]:
    runtime = build_runtime(settings)
    runtime.registry.register(KnowledgeTool(CapturedBackend(captured_raw())))
    timings: list[float] = []
    run_id = ""
    previous: str | None = None
    for index in range(calls):
        if index % CALLS_PER_RUN == 0:
            started = runtime.run_service.start(
                budget=RunBudget(tool_calls=CALLS_PER_RUN + 1),
                tools=runtime.registry.grants,
                context=DiagnosisContext("card-gateway"),
                progress=runtime.progress_policy,
            )
            assert isinstance(started, StartedRun)
            run_id, previous = started.run_id, None
            runtime.runs.load(run_id)
        arguments = json.dumps(
            {
                "previous_observation": None
                if previous is None
                else {"tool_call_id": previous, "evaluation": "GAINED"},
                "input": {"query": f"card-gateway pool exhausted {index}"},
            }
        )
        begin = time.perf_counter()
        handled = runtime.interceptor.handle(run_id, f"c{index}", "lookup_knowledge", arguments)
        timings.append(time.perf_counter() - begin)
        assert isinstance(handled, Observed)
        assert handled.observation["status"] == "READY", handled.observation
        previous = f"c{index}"
    runtime.close()
    return timings


def _timed_rounds(settings: Settings, calls: int, rounds: int) -> list[list[float]]:
    run(settings, 300)  # warm-up: imports, caches, the allocator
    return [run(settings, calls) for _ in range(rounds)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--store", choices=["memory", "sqlite", "redis"], default="memory")
    parser.add_argument("--redis-url")
    parser.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL")
    args = parser.parse_args()
    if args.store == "redis":
        with redis_for_bench(args.redis_url) as url:
            settings = Settings(store=StoreSettings(kind="redis", url=url, key_prefix="bench"))
            rounds = _timed_rounds(settings, args.calls, args.rounds)
    elif args.store == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            path = str(Path(folder) / "store.db")
            store = StoreSettings(kind="sqlite", path=path, synchronous=args.synchronous)
            rounds = _timed_rounds(Settings(store=store), args.calls, args.rounds)
    else:
        settings = Settings(store=StoreSettings(kind="memory"))
        rounds = _timed_rounds(settings, args.calls, args.rounds)
    medians = sorted(statistics.median(timings) * 1e6 for timings in rounds)
    every = sorted(t for timings in rounds for t in timings)
    p99 = every[int(len(every) * 0.99)] * 1e6
    kind = args.store if args.store != "sqlite" else f"sqlite {args.synchronous}"
    spread = " / ".join(f"{m:.0f}" for m in medians)
    print(f"lookup_knowledge via interceptor ({kind} store), backend excluded: "
          f"median {statistics.median(medians):.0f} µs (median of {len(rounds)} rounds of "
          f"{args.calls} calls; round medians {spread} µs), p99 {p99:.0f} µs")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
