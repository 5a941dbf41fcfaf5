"""EvidenceGuard over a draft citing 20 calls on Redis, the grounding judge over 20 analyses,
and the release of a 200-event run with full verification against the bare verification.

    .venv/bin/python bench/release.py [--redis-url URL] [--repeat N] [--runs N]

The run makes 20 real ``lookup_knowledge`` calls (the FTS5 backend over the bundled runbooks)
through the interceptor; the draft cites each in its own analysis. Timed: reading the run's
log fresh from Redis plus one pipelined vault read of every citation and every guard rule
(what the release does), and the grounding judge over the verified snapshot. Medians.

Release: 2 x ``--runs`` runs of 200 events each before their release (metered agent turns,
each with one ``lookup_knowledge`` call; the draft quotes four of the runbook excerpts found),
half released by the worker that drove them (their log cached), half by a worker that never
read them (``forget``: the whole log read and folded first). The release
verifies the whole chain against the head kept outside the stream before deciding; the bare
verification (``RunVerifier.verify_log``: the head and stream reads and the deep chain check)
is timed on the same runs, just before each release.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import time
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._redis import redis_for_bench
from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import (
    BudgetSettings,
    KnowledgeSettings,
    ProgressSettings,
    StoreSettings,
)
from factledger.adapters.config.settings import Settings
from factledger.adapters.judges.grounding import GroundingJudge
from factledger.application.contracts.draft import parse_draft
from factledger.application.release.evidence_guard import EvidenceGuard, GuardPassed
from factledger.application.run_repository import StoreFailed
from factledger.application.run_service import StartedRun
from factledger.application.verification.verdicts import LogIntact
from factledger.domain.release.draft import Draft
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.run_events import DiagnosisContext, ModelCallPurpose
from factledger.ports.semantic_judge import JudgeRequest, JudgeSupported

QUERIES = [
    "GW-504 pool exhausted", "acquirer timeouts", "certificate expiry", "retry storm",
    "deadlock ledger", "posting queue backlog", "rate limiting 429", "checkout errors",
    "connection pool", "mTLS handshake", "circuit breaker", "payment failures triage",
    "queue consumer lag", "database lock wait", "token bucket", "acquirer latency",
    "routing flag", "pool pending", "dead letter", "platform overview",
]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url")
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument(
        "--judge-only", action="store_true", help="skip the release runs (guard and judge only)"
    )
    args = parser.parse_args()
    runbooks = str(files("factledger.adapters.demo").joinpath("knowledge"))
    with redis_for_bench(args.redis_url) as url:
        settings = Settings(
            store=StoreSettings(kind="redis", url=url, key_prefix="bench-release"),
            knowledge=KnowledgeSettings(dir=runbooks),
        )
        runtime = build_runtime(settings)
        started = runtime.run_service.start(
            budget=runtime.budget,
            tools=runtime.registry.grants,
            context=DiagnosisContext("card-gateway"),
        )
        assert isinstance(started, StartedRun)
        run_id, previous = started.run_id, None
        analyses = []
        for index, query in enumerate(QUERIES):
            envelope = {
                "previous_observation": None
                if previous is None
                else {"tool_call_id": previous, "evaluation": "GAINED"},
                "input": {"query": query},
            }
            runtime.interceptor.handle(
                run_id, f"c{index}", "lookup_knowledge", json.dumps(envelope)
            )
            previous = f"c{index}"
            record = runtime.canonical.read(run_id, f"c{index}")
            status = getattr(record, "evidence_status", None)
            kind = (
                "SUPPORTING_EVIDENCE" if str(status) == "EVIDENCE_FOUND" else "NEGATIVE_OBSERVATION"
            )
            analyses.append({"kind": kind, "claim": f"Runbook lookup for {query}.",
                             "tool_call_ids": [f"c{index}"]})  # fmt: skip
        draft = parse_draft(json.dumps({"conclusion": "See the analyses.", "analyses": analyses}))
        assert isinstance(draft, Draft)
        guard = EvidenceGuard(runtime.canonical, runtime.registry)
        timings: list[float] = []
        verdict = None
        for _ in range(args.repeat):
            begin = time.perf_counter()
            log = runtime.runs.load(run_id)
            assert not isinstance(log, StoreFailed)
            verdict = guard.check(log, draft)
            timings.append(time.perf_counter() - begin)
        assert isinstance(verdict, GuardPassed), verdict
        judge = GroundingJudge()
        request = JudgeRequest(draft.conclusion, verdict.snapshot.claims)
        judged: list[float] = []
        on_cpu: list[float] = []
        for _ in range(args.repeat):
            begin, begin_cpu = time.perf_counter(), time.process_time()
            answer = judge.judge(request, 5.0)
            judged.append(time.perf_counter() - begin)
            on_cpu.append(time.process_time() - begin_cpu)
        first = _first_judgements(judge, request, args.repeat)
        runtime.close()
    print(f"EvidenceGuard, 20 citations, Redis (fresh log read + one vault read): median "
          f"{statistics.median(timings) * 1e3:.2f} ms")  # fmt: skip
    verdict_name = "SUPPORTED" if isinstance(answer, JudgeSupported) else "UNSUPPORTED"
    print(f"grounding judge, 20 analyses: median {statistics.median(judged) * 1e3:.2f} ms "
          f"(verdict: {verdict_name}; CPU time median {statistics.median(on_cpu) * 1e3:.2f} ms, "
          "less sensitive to a loaded machine)")  # fmt: skip
    print(f"grounding judge, the same, nothing remembered (every cache of the domain emptied "
          f"before each judgement, as a draft judged the first time): median "
          f"{statistics.median(first) * 1e3:.2f} ms")  # fmt: skip
    if args.judge_only:
        return 0
    with redis_for_bench(args.redis_url) as url:
        release_bench(url, args.runs, runbooks)
    return 0


def _first_judgements(judge: GroundingJudge, request: JudgeRequest, repeat: int) -> list[float]:
    """Judgement times with every remembered reading of the domain forgotten before each."""
    caches = [
        value
        for name, module in list(sys.modules.items())
        if name.startswith("factledger.domain")
        for value in vars(module).values()
        if isinstance(value, functools._lru_cache_wrapper)
    ]
    timings: list[float] = []
    for _ in range(repeat):
        for cache in caches:
            cache.cache_clear()
        begin = time.perf_counter()
        judge.judge(request, 5.0)
        timings.append(time.perf_counter() - begin)
    return timings


# -- release of a 200-event run ------------------------------------------------------------

RUN_EVENTS = 200


def _drive_run(runtime: Runtime, index: int) -> str:
    """A run of exactly ``RUN_EVENTS`` events: metered agent turns, each with one call."""
    started = runtime.run_service.start(
        budget=runtime.budget,
        tools=runtime.registry.grants,
        context=DiagnosisContext(
            "card-gateway",
            datetime(2026, 3, 14, 9, 0, tzinfo=UTC),
            datetime(2026, 3, 14, 10, 0, tzinfo=UTC),
        ),
        progress=runtime.progress_policy,
    )
    assert isinstance(started, StartedRun)
    run_id, previous, step = started.run_id, None, 0
    while _events(runtime, run_id) <= RUN_EVENTS - 7:  # a turn is about 7 events
        step += 1
        runtime.run_service.reserve_model_call(run_id, ModelCallPurpose.AGENT_TURN, step)
        runtime.run_service.record_model_usage(run_id, ModelCallPurpose.AGENT_TURN, 900, 60)
        envelope = {
            "previous_observation": None
            if previous is None
            else {"tool_call_id": previous, "evaluation": "GAINED"},
            "input": {"query": f"{QUERIES[step % len(QUERIES)]} {index} {step}"},
        }
        tool_call_id = f"c{step}"
        runtime.interceptor.handle(
            run_id, tool_call_id, "lookup_knowledge", json.dumps(envelope), step=step
        )
        previous = tool_call_id
    while _events(runtime, run_id) < RUN_EVENTS:
        runtime.run_service.record_model_usage(run_id, ModelCallPurpose.AGENT_TURN, 1, 1)
    return run_id


def _events(runtime: Runtime, run_id: str) -> int:
    log = runtime.runs.load(run_id, refresh=False)
    assert not isinstance(log, StoreFailed)
    return log.sequence


def _draft(runtime: Runtime, run_id: str) -> str:
    """Four analyses, each a sentence of the runbook excerpt its call found."""
    log = runtime.runs.load(run_id)
    assert not isinstance(log, StoreFailed)
    analyses = []
    for tool_call_id in log.invocations:
        record = runtime.canonical.read(run_id, tool_call_id)
        result = getattr(record, "agent_result", None) or {}
        evidence = result.get("evidence") or []
        if evidence and isinstance(evidence[0], dict):
            sentence = str(evidence[0].get("excerpt", "")).split(". ")[0].strip()
            analyses.append({"kind": "SUPPORTING_EVIDENCE", "claim": sentence,
                             "tool_call_ids": [tool_call_id]})  # fmt: skip
        if len(analyses) == 4:
            break
    conclusion = str(analyses[0]["claim"])
    return json.dumps({"conclusion": conclusion, "analyses": analyses})


def release_bench(url: str, runs: int, runbooks: str) -> None:
    """Release ``runs`` warm and ``runs`` cold 200-event runs; print medians and ratios."""
    settings = Settings(
        store=StoreSettings(kind="redis", url=url, key_prefix="bench-release-200"),
        knowledge=KnowledgeSettings(dir=runbooks),
        budget=BudgetSettings(tool_calls=100, model_calls=100, deadline_seconds=3600),
        progress=ProgressSettings(no_gain_threshold=100),
    )
    runtime = build_runtime(settings)
    timings: dict[str, list[float]] = {"warm": [], "cold": [], "verify": [], "full": []}
    outcomes: set[str] = set()
    for index in range(2 * runs):
        run_id = _drive_run(runtime, index)
        assert _events(runtime, run_id) == RUN_EVENTS
        text = _draft(runtime, run_id)
        cold = index % 2 == 1
        begin = time.perf_counter()
        verdict = runtime.verifier.verify_log(run_id)
        timings["verify"].append(time.perf_counter() - begin)
        assert isinstance(verdict, LogIntact), verdict
        begin = time.perf_counter()
        runtime.verifier.verify(run_id)
        timings["full"].append(time.perf_counter() - begin)
        if cold:
            runtime.runs.forget(run_id)
        begin = time.perf_counter()
        released = runtime.releases.release(run_id, text)
        timings["cold" if cold else "warm"].append(time.perf_counter() - begin)
        assert isinstance(released, ReleaseResult), released
        outcomes.add(released.outcome.value)
    runtime.close()
    verify = statistics.median(timings["verify"])
    print(f"release, {RUN_EVENTS}-event run, Redis, full verification, warm cache: median "
          f"{statistics.median(timings['warm']) * 1e3:.2f} ms ({runs} runs; outcomes "
          f"{'/'.join(sorted(outcomes))})")  # fmt: skip
    print(f"release, {RUN_EVENTS}-event run, Redis, read and folded cold: median "
          f"{statistics.median(timings['cold']) * 1e3:.2f} ms ({runs} runs)")  # fmt: skip
    print(f"bare log verification (head + stream read, deep chain check): median "
          f"{verify * 1e3:.2f} ms; warm release / verification "
          f"{statistics.median(timings['warm']) / verify:.1f}x")  # fmt: skip
    print(f"run verification with every vault body (runs verify): median "
          f"{statistics.median(timings['full']) * 1e3:.2f} ms")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
