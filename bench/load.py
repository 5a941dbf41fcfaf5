"""Many workers on one Redis: throughput, latency, CPU, and the invariants afterwards.

    .venv/bin/python bench/load.py [--workers 1 2 4] [--threads 2] [--runs-per-worker 100]
                                   [--calls-per-run 10] [--redis-url URL] [--out FILE]

For each worker count N and each thread count T, N processes (spawned, each building its
runtime through the production composition root) drive scripted agents through the Harness
facade from T threads each: every run makes ``calls-per-run`` tool calls with the progress
protocol (each call evaluates the previous one), then releases a draft citing them. Backends
are no-op (a constant result through a trivial projector), so what is measured is the harness:
interceptor, boundary, appends, release.
Reported per (N, T): tool calls/s (over the whole time the threads ran, run starts and releases
included), p50/p99 latency per call, CPU seconds of the workers (process start included) and of
redis-server, and the checks: no budget overspent, no duplicate READY, every run's chain
verifies against its head, and the audit rows projected from the partition logs into a fresh
SQLite audit are exactly one per run and one READY row per call, each run's at its chain head
(``audit_mismatches`` counts anything lost, duplicated or behind). Threads share a worker's
interpreter lock: more than two add waiting, not throughput, on this kind of machine.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import redis
from returns.result import Result, Success

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._redis import redis_for_bench
from factledger.adapters.audit.wiring import open_audit
from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import BudgetSettings, StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.system import SystemClock
from factledger.application.contracts.envelope import KnowledgeInput
from factledger.application.harness import Harness
from factledger.application.tool_api.tool import EvidenceTool
from factledger.domain.chain import ChainIntact, verify_chain
from factledger.domain.evidence import Source
from factledger.domain.invocation import Ready
from factledger.domain.json_types import JsonObject
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, ProjectedToolResult, ProjectionFailure
from factledger.ports.event_store import EventStore

WINDOW = {"start": "2026-03-14T09:00:00+00:00", "end": "2026-03-14T10:00:00+00:00"}


class NoopTool(EvidenceTool[KnowledgeInput]):
    """``lookup_knowledge``'s contract over a backend that answers at once."""

    name = "lookup_knowledge"
    description = "no-op"
    input_model = KnowledgeInput
    self_bounded = True
    content_keys = ("evidence",)

    def scope(self, request: KnowledgeInput) -> JsonObject:
        return {"query": request.query}

    def run(
        self, request: KnowledgeInput, timeout_seconds: float, /
    ) -> Result[str, BackendFailure]:
        return Success('{"hits": 1}')

    def project(
        self, request: KnowledgeInput, raw_json: str, /
    ) -> Result[ProjectedToolResult, ProjectionFailure]:
        result: JsonObject = {"scope": {"query": request.query}, "evidence": ["noop evidence"]}
        return Success(ProjectedToolResult(result, EvidenceStatus.EVIDENCE_FOUND))

    def evidence_status(self, agent_result: JsonObject) -> EvidenceStatus | None:
        return EvidenceStatus.EVIDENCE_FOUND if agent_result.get("evidence") else None

    def summarize(self, agent_result: JsonObject, evidence_status: EvidenceStatus) -> str:
        return "noop evidence"

    def sources(self, agent_result: JsonObject) -> tuple[Source, ...]:
        return (Source("lookup_knowledge", "noop", {}),)


def _harness(url: str, prefix: str, tool_calls: int) -> Harness:
    settings = Settings(
        store=StoreSettings(kind="redis", url=url, key_prefix=prefix),
        budget=BudgetSettings(tool_calls=tool_calls),
    )
    return build_harness(settings, tools=[NoopTool()])


def _drive_run(
    harness: Harness, calls: int, latencies: list[float], *, release: bool = True
) -> str:
    from datetime import datetime

    run_id = harness.start_run(
        question="load", service="svc",
        start=datetime.fromisoformat(WINDOW["start"]), end=datetime.fromisoformat(WINDOW["end"]),
    )  # fmt: skip
    previous = None
    for index in range(calls):
        arguments = json.dumps(
            {
                "previous_observation": None
                if previous is None
                else {"tool_call_id": previous, "evaluation": "GAINED"},
                "input": {"query": f"q{index}"},
            }
        )
        began = time.perf_counter()
        observation = harness.observe(run_id, f"c{index}", "lookup_knowledge", arguments)
        latencies.append(time.perf_counter() - began)
        assert observation.is_ready, observation
        previous = f"c{index}"
    if not release:
        return run_id
    draft = {
        "conclusion": "noop evidence",
        "analyses": [
            {"kind": "SUPPORTING_EVIDENCE", "claim": "noop evidence",
             "tool_call_ids": [f"c{i}" for i in range(calls)]}
        ],
    }  # fmt: skip
    harness.release(run_id, json.dumps(draft))
    return run_id


def worker(url: str, prefix: str, runs: int, calls: int, threads: int, out: str) -> None:
    harness = _harness(url, prefix, calls)
    latencies: list[float] = []
    run_ids: list[str] = []
    lock = threading.Lock()

    def loop(share: int) -> None:
        local: list[float] = []
        ids = [_drive_run(harness, calls, local) for _ in range(share)]
        with lock:
            latencies.extend(local)
            run_ids.extend(ids)

    shares = [runs // threads + (1 if i < runs % threads else 0) for i in range(threads)]
    pool = [threading.Thread(target=loop, args=(share,)) for share in shares if share]
    began = time.perf_counter()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    elapsed = time.perf_counter() - began
    cpu = psutil.Process().cpu_times()
    report = {"latencies": latencies, "run_ids": run_ids, "elapsed": elapsed}
    report["cpu"] = cpu.user + cpu.system
    Path(out).write_text(json.dumps(report))
    harness.close()


def _redis_cpu(url: str) -> float:
    info = redis.Redis.from_url(url).info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def _check(url: str, prefix: str, run_ids: list[str], calls: int) -> dict[str, int]:
    harness = _harness(url, prefix, calls)
    store = harness.parts.runs.store
    overspent = duplicates = broken = 0
    settings = Settings(store=StoreSettings(kind="redis", url=url, key_prefix=prefix))
    audit_off = _audit_mismatches(settings, store, run_ids, calls)
    for run_id in run_ids:
        log = harness.parts.runs.load(run_id)
        assert isinstance(log, RunLog)
        assert log.run is not None
        if log.run.usage.tool_calls > log.run.budget.tool_calls:
            overspent += 1
        ready = [i for i in log.invocations.values() if isinstance(i, Ready)]
        if len({i.info.tool_call_id for i in ready}) != len(ready):
            duplicates += 1
        head = store.read_head(run_id).unwrap()
        if not isinstance(verify_chain(store.read_run(run_id).unwrap(), head), ChainIntact):
            broken += 1
    harness.close()
    return {"runs": len(run_ids), "overspent": overspent, "duplicate_ready": duplicates,
            "broken_chains": broken, "audit_mismatches": audit_off}  # fmt: skip


def _audit_mismatches(settings: Settings, store: EventStore, run_ids: list[str], calls: int) -> int:
    """Project the partition logs into a fresh SQLite audit and count what is off: a run
    without its row, a row whose head is not the stream's, a run without exactly ``calls``
    READY invocation rows, and any row beyond those (lost or duplicated rows both count)."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/audit.db"
        opened = open_audit(settings, store, SystemClock(), url=url).unwrap()
        opened.audit.catch_up()
        off = 0
        for run_id in run_ids:
            audit = opened.store.read_run(run_id).unwrap()
            head = store.read_head(run_id).unwrap()
            if audit is None or head is None:
                off += 1
                continue
            ready = [row for row in audit.invocations.values() if row.status.value == "READY"]
            if (audit.run.last_sequence, audit.run.head_hash) != (head.sequence, head.hash):
                off += 1
            if len(ready) != calls or len(audit.invocations) != calls:
                off += 1
        with opened.store.database.engine.connect() as connection:
            rows = connection.exec_driver_sql("SELECT COUNT(*) FROM audit_runs").scalar_one()
            invocations = connection.exec_driver_sql(
                "SELECT COUNT(*) FROM audit_invocations"
            ).scalar_one()
        off += abs(int(rows) - len(run_ids)) + abs(int(invocations) - len(run_ids) * calls)
        opened.close()
    return off


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--runs-per-worker", type=int, default=100)
    parser.add_argument("--calls-per-run", type=int, default=10)
    parser.add_argument("--threads", type=int, nargs="+", default=[2])
    parser.add_argument("--redis-url")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    spawn = multiprocessing.get_context("spawn")
    header = (
        "| workers | threads each | tool calls/s | p50 | p99 | worker CPU s | redis CPU s "
        "| wall s | checks |"
    )
    lines = [header, "|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    with redis_for_bench(args.redis_url) as url:
        for count, threads in [(c, t) for c in args.workers for t in args.threads]:
            prefix = f"load{count}-{time.time_ns()}"
            outputs = [Path(f"/tmp/factledger-load-{prefix}-{i}.json") for i in range(count)]
            cpu_before = _redis_cpu(url)
            began = time.perf_counter()
            processes = [
                spawn.Process(target=worker, args=(url, prefix, args.runs_per_worker,
                                                   args.calls_per_run, threads, str(out)))
                for out in outputs
            ]  # fmt: skip
            for process in processes:
                process.start()
            for process in processes:
                process.join()
            wall = time.perf_counter() - began
            redis_cpu = _redis_cpu(url) - cpu_before
            results = [json.loads(out.read_text()) for out in outputs]
            latencies = sorted(x for r in results for x in r["latencies"])
            run_ids = [x for r in results for x in r["run_ids"]]
            busy = max(r["elapsed"] for r in results)
            calls_per_s = len(latencies) / busy
            p50 = statistics.median(latencies) * 1e3
            p99 = latencies[int(len(latencies) * 0.99)] * 1e3
            checks = _check(url, prefix, run_ids, args.calls_per_run)
            line = (f"| {count} | {threads} | {calls_per_s:,.0f} | {p50:.2f} ms | {p99:.2f} ms | "
                    f"{sum(r['cpu'] for r in results):.1f} | {redis_cpu:.1f} | {wall:.1f} | "
                    f"{checks} |")  # fmt: skip
            print(line, flush=True)
            lines.append(line)
            for out in outputs:
                out.unlink()
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
