"""``factledger demo``: a run on embedded defaults, end to end, in one process.

It starts a run and passes a few tool calls through the ToolBoundary with the in-process
store: one that finishes READY, one that reuses its id, one that claims another run, and one
whose backend returns more than a call may keep; then it verifies the run's hash chain.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from returns.result import Result, Success

from factledger.adapters.bootstrap import build_runtime
from factledger.adapters.config.settings import Settings
from factledger.application.run_service import StartedRun
from factledger.application.tool_call import (
    BoundaryFailed,
    BoundaryReady,
    BoundaryRefused,
    RunContext,
    ToolBoundaryResult,
    ToolCallRequestEnvelope,
)
from factledger.domain.budget import RunBudget
from factledger.domain.chain import ChainIntact, verify_chain
from factledger.domain.json_types import JsonObject
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, ProjectedToolResult, ProjectionFailure

__all__ = ["register"]

_RUNBOOK = {
    "evidence": [
        {
            "document_id": "rb-payments-timeouts",
            "title": "Payments: upstream timeouts",
            "excerpt": "Card authorisations time out when the acquirer pool is exhausted.",
        }
    ]
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("demo", help="run the bundled example on embedded defaults")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=_run)


def _backend(raw: str) -> Callable[[float], Result[str, BackendFailure]]:
    def execute(_: float) -> Result[str, BackendFailure]:
        return Success(raw)

    return execute


def _projector(raw: str) -> Result[ProjectedToolResult, ProjectionFailure]:
    return Success(ProjectedToolResult(json.loads(raw), EvidenceStatus.EVIDENCE_FOUND))


def _describe(result: ToolBoundaryResult) -> JsonObject:
    match result:
        case BoundaryReady():
            return {
                "tool_call_id": result.tool_call_id,
                "status": "READY",
                "evidence_status": result.result.evidence_status.value,
            }
        case BoundaryRefused():
            return {
                "tool_call_id": result.tool_call_id,
                "status": "REFUSED",
                "error_code": result.code.value,
            }
        case BoundaryFailed():
            return {
                "tool_call_id": result.tool_call_id,
                "status": "ERROR",
                "error_code": result.code.value,
            }


def _run(args: argparse.Namespace) -> int:
    runtime = build_runtime(Settings())
    try:
        budget = RunBudget(call_raw_bytes=4096)
        started = runtime.run_service.start(
            budget=budget,
            tools=(ToolGrant("lookup_knowledge", True),),
            context=DiagnosisContext(service="payments"),
            question="Why are card payments failing?",
        )
        if not isinstance(started, StartedRun):
            print(f"could not start a run: {started}", file=sys.stderr)
            return 1
        run_id = started.run_id
        context = RunContext(run_id, step=1)
        calls = [
            ("call-1", run_id, json.dumps(_RUNBOOK)),
            ("call-1", run_id, json.dumps(_RUNBOOK)),
            ("call-2", "run-someone-else", json.dumps(_RUNBOOK)),
            ("call-3", run_id, json.dumps({"blob": "x" * 10_000})),
        ]
        results: list[JsonObject] = []
        for tool_call_id, claimed_run, raw in calls:
            envelope = ToolCallRequestEnvelope(
                run_id=claimed_run,
                tool_call_id=tool_call_id,
                tool_name="lookup_knowledge",
                arguments_json='{"query": "payment timeouts"}',
                authorized=True,
                read_only=True,
            )
            outcome = runtime.boundary.invoke(context, envelope, _backend(raw), _projector)
            results.append(_describe(outcome))
        stored = runtime.store.read_run(run_id).unwrap()
        head = runtime.store.read_head(run_id).unwrap()
        verdict = verify_chain(stored, head, deep=True)
        summary: JsonObject = {
            "run_id": run_id,
            "calls": list(results),
            "events": len(stored),
            "chain": "INTACT" if isinstance(verdict, ChainIntact) else "BROKEN",
        }
        if args.json:
            print(json.dumps(summary, indent=2))
        else:
            print(f"run {run_id}")
            for item in results:
                detail = item.get("evidence_status") or item.get("error_code")
                print(f"  {item['tool_call_id']:<8} {item['status']:<8} {detail}")
            print(f"  {len(stored)} events, hash chain {str(summary['chain']).lower()}")
        return 0 if isinstance(verdict, ChainIntact) else 1
    finally:
        runtime.close()
