"""Every benchmark, in one run, into ``bench/README.md``.

    .venv/bin/python bench/report.py [--quick] [--soak-seconds S]

Runs each script under ``bench/`` as its own process (so one cannot warm the next), each
against the reference it measures in the same run (bare Redis round trips, Drain3, sqlglot
parse-only, hash-only verification), and writes their outputs verbatim under one heading
each, with the machine described and the command of every figure. ``--quick`` shortens the
runs (fewer calls, a short soak) for a smoke check; the committed report is a full run.
Nothing is edited by hand: a figure in the report is a figure a script printed.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def _machine() -> str:
    memory = psutil.virtual_memory().total / 1024**3
    cpus = os.cpu_count()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{platform.machine()}, {cpus} CPUs, {memory:.0f} GiB, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}; load average at the start "
        f"{load}; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )


def _run(title: str, args: list[str], note: str) -> str:
    command = " ".join(["python", *args])
    print(f"== {title}: {command}", flush=True)
    began = time.monotonic()
    done = subprocess.run(
        [PYTHON, *args], cwd=ROOT, capture_output=True, text=True, timeout=3600, check=False
    )
    elapsed = time.monotonic() - began
    output = done.stdout.strip() or "(no output)"
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        output += f"\n\n[exit code {done.returncode}]\n{tail}"
    print(output, flush=True)
    return (
        f"## {title}\n\n{note}\n\nCommand: `.venv/bin/{command}` ({elapsed:.0f} s)\n\n"
        f"```\n{output}\n```\n"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--soak-seconds", type=int, default=600)
    args = parser.parse_args()
    quick = args.quick
    soak = 30 if quick else args.soak_seconds
    sections = [
        ("Foundation: ToolBoundary, Redis round trips, fold, chain verification",
         ["bench/foundation.py", "--calls", "1000" if quick else "4000"],
         "Targets: boundary ≤ 150 µs in memory; ≤ 1 ms and ≤ 3 round trips on Redis; fold and "
         "verification ≥ 200,000 events/s. Reference: a bare XADD round trip, measured in the same "
         "run; re-encoding before hashing."),
        ("Interceptor + boundary + views, lookup_knowledge, backend excluded",
         ["bench/interceptor.py", "--calls", "500" if quick else "2000", "--rounds",
          "3" if quick else "5"],
         "Target: median ≤ 300 µs on the in-process store."),
        ("The same on the SQLite file store, synced at checkpoints",
         ["bench/interceptor.py", "--store", "sqlite", "--synchronous", "NORMAL", "--calls",
          "1000", "--rounds", "3"],
         "No target: what two SQLite transactions per call add."),
        ("The same on the SQLite file store, synced on every append (the default)",
         ["bench/interceptor.py", "--store", "sqlite", "--synchronous", "FULL", "--calls", "1000",
          "--rounds", "3"],
         "No target: what a disk sync per append adds on this machine's disk."),
        ("EvidenceGuard, grounding judge, release of a 200-event run", ["bench/release.py"],
         "Targets: guard over 20 citations on Redis ≤ 5 ms; grounding judge over 20 analyses "
         "≤ 20 ms; release of a 200-event run with full verification on Redis ≤ 10 ms "
         "(reference: the bare log verification, in the same run)."),
        ("SQL sandbox decisions: red-team bypasses and analyst false rejects",
         ["bench/sql_corpus.py"],
         "Target: 0 bypasses, at most 2 % of analyst queries refused (decisions, not timings)."),
        ("The paired-claims corpus through the release gate", ["bench/claims_eval.py"],
         "Target: every honest draft published, no twin published (decisions, not timings)."),
        ("Metrics: one query_metrics projection, 50 series over 24 h at 15 s",
         ["bench/metrics_projection.py", "--rounds", "5" if quick else "15"],
         "Target: median ≤ 50 ms after the backend answered; result ≤ the call projection "
         "budget (reference: json.loads of the same values as JSON numbers, in the same run)."),
        ("Knowledge: FTS5 over 10,000 runbook sections", ["bench/knowledge_fts.py"],
         "Target: median lookup ≤ 5 ms."),
        ("SQL validator", ["bench/sql_validator.py", "--rounds", "3" if quick else "7",
                           "--seconds", "1"],
         "Target: ≥ 200 statements/s; reference: sqlglot parse only, in the same run."),
        ("Logs: template quality against Drain3", ["bench/logs_eval.py"],
         "Targets: average GA ≥ 0.95 and FGA ≥ 0.85 with one generic configuration; Drain3 "
         "(generic and tuned per dataset) in the same run."),
        ("Logs: projector throughput against Drain3", ["bench/logs_throughput.py"],
         "Target: ≥ 2× Drain3's lines/s (its example masks), peak RSS for 1M lines."),
        ("Logs: the incident scenario", ["bench/logs_incident.py"],
         "Target: the late burst's template, every error template, examples from ≥ 90 % of the "
         "time buckets."),
        ("Audit: rebuild into SQLite and MariaDB", ["bench/audit_rebuild.py"],
         "Target: rebuild ≥ 20,000 events/s; chain verification ≥ 200,000 events/s."),
        ("Many workers on one Redis",
         ["bench/load.py", "--runs-per-worker", "10" if quick else "100", "--threads", "1", "2",
          "4"],
         "Targets: one worker ≥ 1,000 tool calls/s (no-op backends), p99 ≤ 5 ms. On two cores "
         "the workers and redis-server share the CPUs: the ceiling is the cores, not linear "
         "scaling."),
        ("Memory per idle run and a soak", ["bench/memory.py", "--soak-seconds", str(soak)],
         "Target: ≤ 20 KB per idle run; RSS flat over the soak once the run cache is full."),
    ]  # fmt: skip
    parts = [
        "# Benchmark report\n",
        "Generated by `.venv/bin/python bench/report.py`; every block is a script's own output.\n",
        f"Machine: {_machine()}\n",
    ]
    parts += [_run(title, command, note) for title, command, note in sections]
    parts.append(
        "## What grows with what\n\n"
        "* Events per run grow with tool calls: about 5 per call (reservation, begin, ready, "
        "outcome, and an evaluation carried by the next call), plus 4–8 for the release. A "
        "worker reads only the events after its cached head; a cold worker folds the whole "
        "run (fold rate above).\n"
        "* Each tool call costs two Redis round trips in the common case (begin, ready); a "
        "conflict with another writer costs one more read and a retry.\n"
        "* A worker holds the logs of its most recent 4,096 runs (a bounded cache); memory per "
        "idle run is above. Runs past the cache are read back on use.\n"
        "* Partition logs grow with events until retention trims them behind every projection's "
        "checkpoint; run streams expire `[retention] days` after the run ends.\n"
    )
    (ROOT / "bench" / "README.md").write_text("\n".join(parts), encoding="utf-8")
    print("wrote bench/README.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
