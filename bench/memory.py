"""Memory per idle run held by a worker, and a worker's RSS over a soak.

    .venv/bin/python bench/memory.py [--runs 2000] [--calls-per-run 5] [--soak-seconds 600]
                                     [--redis-url URL] [--out FILE]

Idle runs: a worker starts ``runs`` runs and makes ``calls-per-run`` no-op calls in each,
leaving them RUNNING (an agent thinking between calls); the memory the worker holds for them
is its RSS growth divided by the number of runs (measured without tracemalloc, which inflates
RSS), and, on a second batch, the live Python allocations ``tracemalloc`` sees.
Soak: the same worker then keeps driving runs for ``soak-seconds``, sampling
its RSS every 10 seconds: the curve should be flat once the bounded cache is full.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._redis import redis_for_bench
from bench.load import _drive_run, _harness


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--calls-per-run", type=int, default=5)
    parser.add_argument("--soak-seconds", type=float, default=600.0)
    parser.add_argument("--redis-url")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    process = psutil.Process()
    lines: list[str] = []

    def say(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    with redis_for_bench(args.redis_url) as url:
        harness = _harness(url, f"mem{time.time_ns()}", args.calls_per_run)
        latencies: list[float] = []
        for _ in range(50):  # warm up imports, pools and caches
            _drive_run(harness, args.calls_per_run, latencies, release=False)
        gc.collect()
        rss_before = process.memory_info().rss
        for _ in range(args.runs):
            _drive_run(harness, args.calls_per_run, latencies, release=False)
        gc.collect()
        rss_after = process.memory_info().rss
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for _ in range(args.runs):
            _drive_run(harness, args.calls_per_run, latencies, release=False)
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
        per_rss = (rss_after - rss_before) / args.runs / 1024
        say(f"idle runs held: {args.runs} RUNNING runs, {args.calls_per_run} calls each")
        say(f"memory per idle run (RSS growth): {per_rss:.1f} KB (target <= 20 KB)")
        live = held / args.runs / 1024
        say(f"memory per idle run (live allocations, tracemalloc): {live:.1f} KB")
        say(f"soak: {args.soak_seconds:.0f} s, RSS sampled every 10 s (MB)")
        began = time.monotonic()
        next_sample = began
        samples: list[str] = []
        runs = 0
        while time.monotonic() - began < args.soak_seconds:
            _drive_run(harness, args.calls_per_run, [])  # latencies not kept: nothing grows here
            runs += 1
            if time.monotonic() >= next_sample:
                rss = process.memory_info().rss / 1024 / 1024
                samples.append(f"{time.monotonic() - began:.0f}s:{rss:.1f}")
                next_sample += 10
        say("soak RSS: " + " ".join(samples))
        say(f"soak runs driven: {runs}")
        harness.close()
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
