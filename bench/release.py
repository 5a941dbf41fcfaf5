"""EvidenceGuard over a draft citing 20 calls on Redis, and the grounding judge over 20 analyses.

    .venv/bin/python bench/release.py [--redis-url URL] [--repeat N]

The run makes 20 real ``lookup_knowledge`` calls (the FTS5 backend over the bundled runbooks)
through the interceptor; the draft cites each in its own analysis. Timed: reading the run's
log fresh from Redis plus one pipelined vault read of every citation and every guard rule
(what the release does), and the grounding judge over the verified snapshot. Medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from importlib.resources import files
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._redis import redis_for_bench
from factledger.adapters.bootstrap import build_runtime
from factledger.adapters.config.sections import KnowledgeSettings, StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.judges.grounding import GroundingJudge
from factledger.application.contracts.draft import parse_draft
from factledger.application.release.evidence_guard import EvidenceGuard, GuardPassed
from factledger.application.run_repository import StoreFailed
from factledger.application.run_service import StartedRun
from factledger.domain.release.draft import Draft
from factledger.domain.run_events import DiagnosisContext
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
        for _ in range(args.repeat):
            begin = time.perf_counter()
            answer = judge.judge(request, 5.0)
            judged.append(time.perf_counter() - begin)
        runtime.close()
    print(f"EvidenceGuard, 20 citations, Redis (fresh log read + one vault read): median "
          f"{statistics.median(timings) * 1e3:.2f} ms")  # fmt: skip
    verdict_name = "SUPPORTED" if isinstance(answer, JudgeSupported) else "UNSUPPORTED"
    print(f"grounding judge, 20 analyses: median {statistics.median(judged) * 1e3:.2f} ms "
          f"(verdict: {verdict_name})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
