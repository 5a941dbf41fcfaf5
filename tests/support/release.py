"""Release scenarios: a run with real knowledge calls, then a draft, on memory or Redis."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime

import redis
from attrs import define, field

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import BudgetSettings, VaultSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.judges.grounding import GroundingJudge
from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.memory.event_store import MemoryEventStore
from factledger.adapters.memory.faults import FaultyEventStore
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.adapters.redis.keys import RedisKeys
from factledger.adapters.redis.replies import stream_entries
from factledger.application.check_result import CheckResult
from factledger.application.interceptor import Observed
from factledger.application.release.check_service import CheckRefused
from factledger.application.release.outcomes import ReleaseOutcomeValue
from factledger.application.release.policy import ReleasePolicy
from factledger.application.release.wiring import ReleaseParts, ReleaseUseCases, wire_release
from factledger.application.run_service import StartedRun
from factledger.domain.chain import StoredEvent
from factledger.domain.json_types import JsonObject
from factledger.domain.run_events import DiagnosisContext
from factledger.ports.draft_repair import DraftRepairer
from factledger.ports.event_store import EventStore
from factledger.ports.payload_vault import PayloadKey
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

    def use_cases(
        self,
        *,
        judge: ScriptedJudge | None = None,
        repair_attempts: int = 1,
        judge_attempts: int = 2,
        check_attempts: int = 3,
    ) -> ReleaseUseCases:
        runtime = self.runtime
        parts = ReleaseParts(
            runtime.runs,
            runtime.run_service,
            runtime.canonical,
            runtime.registry,
            runtime.snapshots,
            runtime.verifier,
            runtime.clock,
        )
        policy = ReleasePolicy(
            repair_attempts=repair_attempts,
            judge_attempts=judge_attempts,
            check_attempts=check_attempts,
        )
        chosen = judge if judge is not None else GroundingJudge()
        return wire_release(parts, chosen, runtime.releases.repairer, policy)

    def release(
        self,
        draft: JsonObject | str | None,
        *,
        judge: ScriptedJudge | None = None,
        repairer: DraftRepairer | None = None,
        repair_attempts: int = 1,
        judge_attempts: int = 2,
    ) -> ReleaseOutcomeValue:
        service = self.use_cases(
            judge=judge, repair_attempts=repair_attempts, judge_attempts=judge_attempts
        ).release
        text = draft if isinstance(draft, str) or draft is None else json.dumps(draft)
        return service.release(self.run_id, text, repairer=repairer)

    def check(
        self,
        draft: JsonObject | str,
        *,
        judge: ScriptedJudge | None = None,
        check_attempts: int = 3,
    ) -> CheckResult | CheckRefused:
        service = self.use_cases(judge=judge, check_attempts=check_attempts).check
        text = draft if isinstance(draft, str) else json.dumps(draft)
        return service.check(self.run_id, text)

    def guard_events(self) -> list[str]:
        stored = self.runtime.store.read_run(self.run_id).unwrap()
        codec = self.runtime.runs.codec
        names = [codec.decode(item.data, item.hash).unwrap().event.TYPE for item in stored]
        keep = {
            "EVIDENCE_GUARD_INITIAL", "EVIDENCE_REPAIR_ATTEMPT", "EVIDENCE_GUARD_RECHECK",
            "SEMANTIC_ATTEMPT", "SEMANTIC_DECISION", "RELEASE_DECISION", "RUN_ENDED",
            "MODEL_CALL_RESERVED", "MODEL_CALL_FAILED", "DRAFT_CHECK",
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


def rewrite_stored_event(s: Scenario, sequence: int, rewrite: Callable[[bytes], bytes]) -> None:
    """Rewrite one stored event's bytes in place and leave its stored hash alone (tampering at
    rest, on the memory store or on Redis)."""
    store = s.faults.inner
    if isinstance(store, MemoryEventStore):
        stored = store.read_run(s.run_id).unwrap()[sequence - 1]
        forged = StoredEvent(s.run_id, sequence, rewrite(stored.data), stored.hash)
        store.replace_event_for_drill(s.run_id, sequence, forged)
        return
    settings = s.runtime.settings.store
    client = redis.Redis.from_url(settings.url)
    key = RedisKeys(settings.key_prefix, settings.partitions).run(s.run_id).events
    entries = stream_entries(client.xrange(key))
    client.delete(key)
    for entry_id, fields in entries:
        data = fields[b"d"]
        if entry_id == f"{sequence}-0".encode():
            data = rewrite(data)
        client.xadd(key, {b"d": data, b"h": fields[b"h"]}, id=entry_id)
    client.close()


def replace_body(s: Scenario, key: PayloadKey, body: bytes) -> None:
    """Overwrite a vault body, keeping its expiry (memory or Redis)."""
    vault = s.runtime.vault
    if isinstance(vault, MemoryPayloadVault):
        vault.replace_body(key, body)
        return
    settings = s.runtime.settings.store
    client = redis.Redis.from_url(settings.url)
    client.set(RedisKeys(settings.key_prefix, settings.partitions).payload(key), body, keepttl=True)
    client.close()


def event_types(s: Scenario) -> list[str]:
    """Every stored event's type, in order."""
    stored = s.runtime.store.read_run(s.run_id).unwrap()
    codec = s.runtime.runs.codec
    return [codec.decode(item.data, item.hash).unwrap().event.TYPE for item in stored]
