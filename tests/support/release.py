"""Release scenarios: a run with real knowledge calls, then a draft, on memory or Redis."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime

from attrs import define, field

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import BudgetSettings, VaultSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.judges.grounding import GroundingJudge
from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.memory.faults import FaultyEventStore
from factledger.application.interceptor import Observed
from factledger.application.release.release_service import (
    ReleaseOutcomeValue,
    ReleasePolicy,
    ReleaseService,
)
from factledger.application.run_service import StartedRun
from factledger.domain.json_types import JsonObject
from factledger.domain.run_events import DiagnosisContext
from factledger.ports.draft_repair import DraftRepairer
from factledger.ports.event_store import EventStore
from factledger.ports.semantic_judge import JudgeAnswer, JudgeRequest, JudgeSupported
from tests.support.interceptor import knowledge_args

T_START = "2026-03-01T10:00:00+00:00"
T_END = "2026-03-01T11:00:00+00:00"


@define
class ScriptedJudge:
    """A semantic judge that answers from a script (the last answer repeats)."""

    answers: list[JudgeAnswer] = field(factory=lambda: [JudgeSupported()])
    uses_model: bool = False
    raises: bool = False
    seen: list[JudgeRequest] = field(factory=list)
    name: str = "scripted"

    def judge(self, request: JudgeRequest, timeout_seconds: float) -> JudgeAnswer:
        self.seen.append(request)
        if self.raises:
            raise RuntimeError("judge crashed: secret=abc")
        if len(self.answers) > 1:
            return self.answers.pop(0)
        return self.answers[0]


@define
class Scenario:
    """One run, its clock and its store's fault switch."""

    runtime: Runtime
    clock: ManualClock
    faults: FaultyEventStore
    run_id: str

    def call(
        self, tool_call_id: str, query: str, previous: tuple[str, str] | None = None
    ) -> JsonObject:
        handled = self.runtime.interceptor.handle(
            self.run_id, tool_call_id, "lookup_knowledge", knowledge_args(query, previous)
        )
        assert isinstance(handled, Observed)
        return handled.observation

    def release(
        self,
        draft: JsonObject | str | None,
        *,
        judge: ScriptedJudge | None = None,
        repairer: DraftRepairer | None = None,
        repair_attempts: int = 1,
        judge_attempts: int = 2,
    ) -> ReleaseOutcomeValue:
        runtime = self.runtime
        service = ReleaseService(
            runtime.runs,
            runtime.run_service,
            runtime.canonical,
            runtime.registry,
            runtime.snapshots,
            judge=judge if judge is not None else GroundingJudge(),
            repairer=runtime.releases._repairer,
            vault=runtime.vault,
            clock=runtime.clock,
            policy=ReleasePolicy(repair_attempts=repair_attempts, judge_attempts=judge_attempts),
        )
        text = draft if isinstance(draft, str) or draft is None else json.dumps(draft)
        return service.release(self.run_id, text, repairer=repairer)

    def guard_events(self) -> list[str]:
        stored = self.runtime.store.read_run(self.run_id).unwrap()
        codec = self.runtime.runs.codec
        names = [codec.decode(item.data, item.hash).unwrap().event.TYPE for item in stored]
        keep = {
            "EVIDENCE_GUARD_INITIAL", "EVIDENCE_REPAIR_ATTEMPT", "EVIDENCE_GUARD_RECHECK",
            "SEMANTIC_ATTEMPT", "SEMANTIC_DECISION", "RELEASE_DECISION", "RUN_ENDED",
            "MODEL_CALL_RESERVED",
        }  # fmt: skip
        return [name for name in names if name in keep]


def draft(conclusion: str, *analyses: tuple[str, str, Sequence[str]]) -> JsonObject:
    """A draft: analyses as (kind, claim, ids)."""
    result: JsonObject = {
        "conclusion": conclusion,
        "analyses": [
            {"kind": kind, "claim": claim, "tool_call_ids": list(ids)}
            for kind, claim, ids in analyses
        ],
    }
    return result


@contextmanager
def scenario(
    settings: Settings, *, with_context: bool = True, deadline_seconds: int = 3 * 3600
) -> Iterator[Scenario]:
    # Real time as the start: a Redis vault expires bodies by its own clock (PXAT).
    clock = ManualClock(datetime.now(UTC))
    holder: list[FaultyEventStore] = []

    def wrap(store: EventStore) -> EventStore:
        holder.append(FaultyEventStore(store))
        return holder[0]

    settings = settings.model_copy(
        update={
            "budget": BudgetSettings(deadline_seconds=deadline_seconds),
            "vault": VaultSettings(ttl_seconds=3600),
        }
    )
    runtime = build_runtime(settings, clock=clock, wrap_store=wrap)
    context = (
        DiagnosisContext(
            "card-gateway", datetime.fromisoformat(T_START), datetime.fromisoformat(T_END)
        )
        if with_context
        else DiagnosisContext()
    )
    started = runtime.run_service.start(
        budget=runtime.budget,
        tools=runtime.registry.grants,
        context=context,
        progress=runtime.progress_policy,
    )
    assert isinstance(started, StartedRun)
    try:
        yield Scenario(runtime, clock, holder[0], started.run_id)
    finally:
        runtime.close()
