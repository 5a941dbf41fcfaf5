"""Every release rule (docs/adr/0012 and 0013), table-driven: the outcome, fallback type,
failure stage, violation codes and the exact sequence of guard events — on the
embedded store and on Redis alike."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from attrs import frozen

from factledger.adapters.config.settings import Settings
from factledger.adapters.judges.recorded_repairs import RecordedRepairs
from factledger.adapters.memory.faults import Fault
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.application.release.outcomes import AlreadyReleased, ReleaseOutcomeValue
from factledger.application.run_repository import StoreFailed
from factledger.application.tool_call import RunContext, ToolCallRequestEnvelope
from factledger.domain.json_types import JsonObject
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.run_commands import BeginToolCall
from factledger.domain.run_decisions import decide_begin_tool_call
from factledger.domain.status import FailureCode, RunState
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from factledger.ports.payload_vault import PayloadKey, PayloadPart
from factledger.ports.semantic_judge import (
    JudgeFinding,
    JudgeSupported,
    JudgeUnavailable,
    JudgeUnsupported,
)
from tests.support.boundary import Backend, found
from tests.support.interceptor import settings_for
from tests.support.release import Scenario, ScriptedJudge, draft, scenario

FOUND = "GW-504 pool exhausted"
NOTHING = "zzqx qqvv"
HONEST_CLAIM = "card-gateway fails with GW-504 because the acquirer connection pool is exhausted."
HONEST_CONCLUSION = "The acquirer connection pool of card-gateway is exhausted, causing GW-504."
SUPPORT = "SUPPORTING_EVIDENCE"
NEGATIVE = "NEGATIVE_OBSERVATION"

GUARDED_SUCCESS = [
    "EVIDENCE_GUARD_INITIAL", "SEMANTIC_ATTEMPT", "SEMANTIC_DECISION", "RELEASE_DECISION",
    "RUN_ENDED",
]  # fmt: skip
GUARD_FAILED = [
    "EVIDENCE_GUARD_INITIAL",
    "EVIDENCE_REPAIR_ATTEMPT",
    "RELEASE_DECISION",
    "RUN_ENDED",
]


@frozen
class Case:
    name: str
    act: Callable[[Scenario], ReleaseOutcomeValue]
    outcome: str
    run_state: str = "SUCCESS"
    failure_code: str | None = None
    fallback_type: str | None = None
    stage: str | None = None
    codes: tuple[str, ...] = ()
    events: tuple[str, ...] = ()


def honest(s: Scenario) -> str:
    s.call("c1", FOUND)
    return "c1"


def _honest_draft(*ids: str) -> JsonObject:
    return draft(HONEST_CONCLUSION, (SUPPORT, HONEST_CLAIM, ids))


def cancelled(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    s.runtime.run_service.cancel(s.run_id)
    return s.release(_honest_draft("c1"))


def budget_with_facts(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    s.runtime.run_service.end(s.run_id, RunState.BUDGET_EXHAUSTED, FailureCode.BUDGET_EXHAUSTED)
    return s.release(_honest_draft("c1"))


def budget_without_facts(s: Scenario) -> ReleaseOutcomeValue:
    s.runtime.run_service.end(s.run_id, RunState.BUDGET_EXHAUSTED, FailureCode.BUDGET_EXHAUSTED)
    return s.release(None)


def timed_out_without_facts(s: Scenario) -> ReleaseOutcomeValue:
    s.clock.advance(timedelta(hours=3, seconds=1))
    return s.release(_honest_draft("c1"))


def internal_failure(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    return s.release(_honest_draft("c1"), judge=ScriptedJudge(raises=True))


def no_draft(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    return s.release(None)


def no_draft_no_facts(s: Scenario) -> ReleaseOutcomeValue:
    return s.release(None)


def malformed(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    return s.release('{"conclusion": "x", "analyses": [{"kind": "MAYBE"}]}')


def missing_citation(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    return s.release(_honest_draft())


def invented_id(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    return s.release(_honest_draft("call-I-never-made"))


def foreign_id(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    other = s.runtime.run_service.start(budget=s.runtime.budget, tools=s.runtime.registry.grants)
    assert not isinstance(other, StoreFailed)
    other_id = other.run_id  # type: ignore[union-attr]
    s.runtime.interceptor.handle(
        other_id, "theirs", "lookup_knowledge", '{"input": {"query": "GW-504"}}'
    )
    return s.release(_honest_draft("c1", "theirs"))


def error_call(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    envelope = ToolCallRequestEnvelope(
        s.run_id, "c-error", "lookup_knowledge", '{"input": {"query": "q"}}', True, True
    )
    failing = Backend(failure=BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))
    s.runtime.boundary.invoke(RunContext(s.run_id), envelope, failing, found)
    return s.release(_honest_draft("c1", "c-error"))


def projecting_call(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    call = ToolCallRequestEnvelope(
        s.run_id, "c-open", "lookup_knowledge", '{"input": {"query": "q"}}', True, True
    )
    begin = BeginToolCall(call, 1, timedelta(hours=1), s.clock.now())
    s.runtime.runs.execute(s.run_id, lambda log: decide_begin_tool_call(log, begin))
    return s.release(_honest_draft("c1", "c-open"))


def supporting_cites_negative(s: Scenario) -> ReleaseOutcomeValue:
    s.call("c1", NOTHING)
    return s.release(_honest_draft("c1"))


def negative_cites_supporting(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    return s.release(draft(HONEST_CONCLUSION, (NEGATIVE, "No runbook matched GW-504.", ["c1"])))


def expired(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    s.clock.advance(timedelta(hours=1, seconds=1))
    return s.release(_honest_draft("c1"))


def tampered(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    vault = s.runtime.vault
    if isinstance(vault, MemoryPayloadVault):
        vault.replace_body(PayloadKey(s.run_id, "c1", PayloadPart.RESULT), b'{"evidence": []}')
    else:
        import redis

        from factledger.adapters.redis.keys import RedisKeys

        settings = s.runtime.settings.store
        key = RedisKeys(settings.key_prefix, settings.partitions).payload(
            PayloadKey(s.run_id, "c1", PayloadPart.RESULT)
        )
        redis.Redis.from_url(settings.url).set(key, b'{"evidence": []}', keepttl=True)
    return s.release(_honest_draft("c1"))


def store_down(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    s.runtime.runs.forget(s.run_id)
    s.faults.set_reads_down(True)
    return s.release(_honest_draft("c1"))


def store_down_at_decision(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    s.runtime.runs.load(s.run_id)
    s.faults.fail_appends(Fault.NOT_SENT, Fault.UNAVAILABLE, *[Fault.UNAVAILABLE] * 8)
    return s.release(_honest_draft("c1"))


def repair_fixes(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    return s.release(_honest_draft("c9"), repairer=RecordedRepairs([_honest_draft("c1")]))


def repair_rewrites(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    rewritten = draft("Something else entirely.", (SUPPORT, HONEST_CLAIM, ["c1"]))
    return s.release(_honest_draft("c9"), repairer=RecordedRepairs([rewritten]))


def unsupported(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    judge = ScriptedJudge([JudgeUnsupported((JudgeFinding(0, "UNGROUNDED_TERMS"),))])
    return s.release(_honest_draft("c1"), judge=judge)


def unavailable(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    return s.release(_honest_draft("c1"), judge=ScriptedJudge([JudgeUnavailable("TIMEOUT")]))


def last_attempt(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    judge = ScriptedJudge([JudgeUnavailable("TIMEOUT"), JudgeSupported()])
    return s.release(_honest_draft("c1"), judge=judge)


def honest_grounded(s: Scenario) -> ReleaseOutcomeValue:
    honest(s)
    s.call("c2", NOTHING, ("c1", "GAINED"))
    agreed = draft(
        HONEST_CONCLUSION,
        (SUPPORT, HONEST_CLAIM, ["c1"]),
        (NEGATIVE, f"No runbook matched {NOTHING!r}.", ["c2"]),
    )
    return s.release(agreed, judge=None)


CASES = [
    Case("honest agent", honest_grounded, "SUCCESS", events=tuple(GUARDED_SUCCESS)),
    Case("cancelled", cancelled, "CANCELLED", "CANCELLED", "RUN_CANCELLED",
         events=("RUN_ENDED", "RELEASE_DECISION")),
    Case("budget exhausted with facts", budget_with_facts, "FALLBACK", "BUDGET_EXHAUSTED", None,
         "INSUFFICIENT_EVIDENCE", "DIAGNOSIS_COLLECTION", events=("RUN_ENDED", "RELEASE_DECISION")),
    Case("budget exhausted without facts", budget_without_facts, "FAILED", "BUDGET_EXHAUSTED",
         "BUDGET_EXHAUSTED", events=("RUN_ENDED", "RELEASE_DECISION")),
    Case("timed out without facts", timed_out_without_facts, "FAILED", "TIMED_OUT",
         "RUN_TIMED_OUT", events=("RUN_ENDED", "RELEASE_DECISION")),
    Case("internal failure", internal_failure, "FAILED", "FAILED", "INTERNAL_FAILURE",
         events=("EVIDENCE_GUARD_INITIAL", "RUN_ENDED", "RELEASE_DECISION")),
    Case("no draft", no_draft, "FALLBACK", fallback_type="INSUFFICIENT_EVIDENCE",
         stage="DIAGNOSIS_COLLECTION", events=("RELEASE_DECISION", "RUN_ENDED")),
    Case("no draft and no facts", no_draft_no_facts, "FAILED",
         failure_code="NO_VERIFIED_EVIDENCE",
         events=("RELEASE_DECISION", "RUN_ENDED")),
    Case("malformed draft", malformed, "FALLBACK", fallback_type="INSUFFICIENT_EVIDENCE",
         stage="DIAGNOSIS_COLLECTION", codes=("MALFORMED_DRAFT",),
         events=("RELEASE_DECISION", "RUN_ENDED")),
    Case("citation missing", missing_citation, "FALLBACK",
         fallback_type="EVIDENCE_VALIDATION_FAILED", stage="EVIDENCE_VALIDATION",
         codes=("MISSING_CITATION",), events=tuple(GUARD_FAILED)),
    Case("invented id", invented_id, "FALLBACK", fallback_type="EVIDENCE_VALIDATION_FAILED",
         stage="EVIDENCE_VALIDATION", codes=("UNKNOWN_TOOL_CALL",), events=tuple(GUARD_FAILED)),
    Case("id from another run", foreign_id, "FALLBACK",
         fallback_type="EVIDENCE_VALIDATION_FAILED", stage="EVIDENCE_VALIDATION",
         codes=("UNKNOWN_TOOL_CALL",), events=tuple(GUARD_FAILED)),
    Case("id of an ERROR call", error_call, "FALLBACK",
         fallback_type="EVIDENCE_VALIDATION_FAILED", stage="EVIDENCE_VALIDATION",
         codes=("NOT_READY",), events=tuple(GUARD_FAILED)),
    Case("id of a PROJECTING call", projecting_call, "FALLBACK",
         fallback_type="EVIDENCE_VALIDATION_FAILED", stage="EVIDENCE_VALIDATION",
         codes=("NOT_READY",), events=tuple(GUARD_FAILED)),
    Case("supporting cites a negative", supporting_cites_negative, "FALLBACK",
         fallback_type="EVIDENCE_VALIDATION_FAILED", stage="EVIDENCE_VALIDATION",
         codes=("EVIDENCE_KIND_MISMATCH",), events=tuple(GUARD_FAILED)),
    Case("negative cites evidence", negative_cites_supporting, "FALLBACK",
         fallback_type="EVIDENCE_VALIDATION_FAILED", stage="EVIDENCE_VALIDATION",
         codes=("EVIDENCE_KIND_MISMATCH",), events=tuple(GUARD_FAILED)),
    Case("tampered body", tampered, "FAILED", failure_code="EVIDENCE_TAMPERED",
         codes=("PROJECTION_INCONSISTENT",), events=tuple(GUARD_FAILED)),
    Case("store down during release", store_down, "FAILED", "FAILED", "STORE_UNAVAILABLE"),
    Case("store down at the decision", store_down_at_decision, "FAILED", "FAILED",
         "STORE_UNAVAILABLE", events=()),
    Case("repair fixes the citations", repair_fixes, "SUCCESS",
         events=("EVIDENCE_GUARD_INITIAL", "EVIDENCE_REPAIR_ATTEMPT", "EVIDENCE_GUARD_RECHECK",
                 "SEMANTIC_ATTEMPT", "SEMANTIC_DECISION", "RELEASE_DECISION", "RUN_ENDED")),
    Case("repair rewrites the conclusion", repair_rewrites, "FALLBACK",
         fallback_type="EVIDENCE_VALIDATION_FAILED", stage="EVIDENCE_VALIDATION",
         codes=("UNKNOWN_TOOL_CALL",), events=tuple(GUARD_FAILED)),
    Case("judge says unsupported", unsupported, "FALLBACK", fallback_type="SEMANTIC_UNSUPPORTED",
         stage="SEMANTIC_VALIDATION", codes=("UNGROUNDED_CLAIM",),
         events=tuple(GUARDED_SUCCESS)),
    Case("judge unavailable for all attempts", unavailable, "FALLBACK",
         fallback_type="SEMANTIC_UNAVAILABLE", stage="SEMANTIC_VALIDATION",
         events=("EVIDENCE_GUARD_INITIAL", "SEMANTIC_ATTEMPT", "SEMANTIC_ATTEMPT",
                 "SEMANTIC_DECISION", "RELEASE_DECISION", "RUN_ENDED")),
    Case("judge succeeds on the last attempt", last_attempt, "SUCCESS",
         events=("EVIDENCE_GUARD_INITIAL", "SEMANTIC_ATTEMPT", "SEMANTIC_ATTEMPT",
                 "SEMANTIC_DECISION", "RELEASE_DECISION", "RUN_ENDED")),
]  # fmt: skip


@pytest.fixture
def run(store_settings: Settings) -> Iterator[Scenario]:
    with scenario(store_settings) as opened:
        yield opened


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_every_release_row(run: Scenario, case: Case) -> None:
    result = case.act(run)
    assert isinstance(result, ReleaseResult), result
    as_json = result.to_json()
    assert as_json["outcome"] == case.outcome
    assert as_json["run_state"] == case.run_state
    assert as_json["failure_code"] == case.failure_code
    fallback = result.fallback
    assert (None if fallback is None else fallback.type.value) == case.fallback_type
    assert (None if fallback is None else fallback.failure_stage.value) == case.stage
    if fallback is not None:
        assert [issue.code.value for issue in fallback.validation_issues] == list(case.codes)
        assert fallback.observed_facts, "a fallback always carries a verified fact"
        assert as_json["published_result"] is None
    if case.outcome != "SUCCESS":
        assert result.published_result is None
    run.faults.set_reads_down(False)
    run.faults.fail_appends()
    if case.name.startswith("store down"):
        return
    assert run.guard_events()[-len(case.events) :] == list(case.events) if case.events else True


def test_the_release_result_has_exactly_the_contract_shape(run: Scenario) -> None:
    result = honest_grounded(run)
    assert isinstance(result, ReleaseResult)
    as_json = result.to_json()
    assert set(as_json) == {
        "run_id", "outcome", "run_state", "failure_code", "published_result", "fallback"
    }  # fmt: skip
    published = as_json["published_result"]
    assert isinstance(published, dict)
    assert set(published) == {"conclusion", "analyses", "source_documents"}
    assert published["source_documents"]
    for source in published["source_documents"]:  # type: ignore[union-attr]
        assert set(source) == {"source_type", "source", "scope"}  # type: ignore[arg-type]


def test_a_fallback_has_exactly_the_contract_shape(run: Scenario) -> None:
    result = missing_citation(run)
    assert isinstance(result, ReleaseResult)
    fallback = result.to_json()["fallback"]
    assert isinstance(fallback, dict)
    assert set(fallback) == {
        "type", "conclusion", "verified_sources", "observed_facts", "limitations",
        "next_steps", "failure_stage", "validation_issues", "stop_reason",
    }  # fmt: skip
    assert fallback["conclusion"] is None
    facts = fallback["observed_facts"]
    issues = fallback["validation_issues"]
    assert isinstance(facts, list)
    assert isinstance(issues, list)
    fact, issue = facts[0], issues[0]
    assert isinstance(fact, dict)
    assert isinstance(issue, dict)
    assert set(fact) == {"tool_call_id", "tool_name", "evidence_status", "summary"}
    assert set(issue) == {"code", "tool_call_id", "analysis_index", "reason", "token"}
    assert issue["analysis_index"] == 0
    assert issue["reason"] == "NO_CITATIONS"


def test_a_run_is_released_once(run: Scenario) -> None:
    first = honest_grounded(run)
    assert isinstance(first, ReleaseResult)
    again = run.release(_honest_draft("c1"))
    assert isinstance(again, AlreadyReleased)
    assert again.decision.outcome.value == "SUCCESS"


def test_a_run_without_its_context_is_a_missing_context_fallback() -> None:
    with scenario(settings_for("memory"), with_context=False) as run:
        result = run.release(_honest_draft("c1"))
        assert isinstance(result, ReleaseResult)
        assert result.fallback is not None
        assert result.fallback.type.value == "MISSING_REQUIRED_CONTEXT"
        assert result.fallback.failure_stage.value == "DIAGNOSIS_INPUT"
        assert result.fallback.observed_facts == ()
        assert any("service" in step for step in result.fallback.next_steps)


def test_the_grounding_judge_refuses_a_claim_the_evidence_does_not_say(run: Scenario) -> None:
    honest(run)
    lie = draft(
        "card-gateway fails because of a DNS outage.",
        (
            SUPPORT,
            "card-gateway returns GW-504 because DNS resolution of the acquirer fails.",
            ["c1"],
        ),
    )
    result = run.release(lie, judge=None)
    assert isinstance(result, ReleaseResult)
    assert result.fallback is not None
    assert result.fallback.type.value == "SEMANTIC_UNSUPPORTED"


def test_an_expired_citation_is_named_and_the_run_falls_back() -> None:
    with scenario(settings_for("memory")) as run:
        honest(run)
        run.call("c2", NOTHING, ("c1", "GAINED"))
        run.clock.advance(timedelta(hours=1, seconds=1))
        result = run.release(_honest_draft("c1"))
        assert isinstance(result, ReleaseResult)
        # every fact expired with its content: nothing verified remains, so it fails closed
        assert result.outcome.value == "FAILED"
        codes = [i.code.value for i in run.runtime.runs.load(run.run_id).released.issues]  # type: ignore[union-attr]
        assert codes == ["EVIDENCE_EXPIRED"]


def test_a_timed_out_run_with_facts_falls_back_with_them() -> None:
    with scenario(settings_for("memory"), deadline_seconds=600) as run:
        honest(run)
        run.clock.advance(timedelta(seconds=601))
        result = run.release(_honest_draft("c1"))
        assert isinstance(result, ReleaseResult)
        as_json = result.to_json()
        assert (as_json["outcome"], as_json["run_state"], as_json["failure_code"]) == (
            "FALLBACK",
            "TIMED_OUT",
            None,
        )
        assert result.fallback is not None
        assert result.fallback.type.value == "INSUFFICIENT_EVIDENCE"
        assert run.guard_events() == ["RUN_ENDED", "RELEASE_DECISION"]
