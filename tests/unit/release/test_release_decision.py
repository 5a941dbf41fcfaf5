"""The release decision as a pure function: rules in order, and properties over every state
and finding (no store, no clock)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from factledger.domain.codec import sha256_hex
from factledger.domain.evidence import ObservedFact, Source
from factledger.domain.model_failure import ModelFailureReason
from factledger.domain.release.decision import decide_release
from factledger.domain.release.draft import Analysis, AnalysisKind
from factledger.domain.release.events import ReleaseDecided
from factledger.domain.release.fallback import PublishedResult
from factledger.domain.release.findings import (
    Collected,
    DraftMalformed,
    EvidenceRejected,
    InternalFailure,
    LogUnverified,
    NoDraft,
    ProtocolViolated,
    ReleaseFinding,
    ReleaseState,
    SemanticRejected,
    SemanticSupported,
    SemanticUnavailable,
    Terminated,
)
from factledger.domain.release.issues import GuardReason, IssueCode, ValidationIssue
from factledger.domain.run_events import RunEnded
from factledger.domain.status import EvidenceStatus, FailureCode, RunState, StopReason

FACT = ObservedFact("c1", "lookup_knowledge", EvidenceStatus.EVIDENCE_FOUND, "runbook GW-504")
SOURCE = Source("lookup_knowledge", "gw-504.md", {"query": "GW-504"})
PUBLISHED = PublishedResult(
    "pool exhausted",
    (Analysis(AnalysisKind.SUPPORTING_EVIDENCE, "pool exhausted", ("c1",)),),
    (SOURCE,),
)
EXPIRED = ValidationIssue(IssueCode.EVIDENCE_EXPIRED, "c1", 0, GuardReason.CONTENT_EXPIRED)
TAMPERED = ValidationIssue(IssueCode.PROJECTION_INCONSISTENT, "c1", 0, GuardReason.BODY_TAMPERED)
UNKNOWN = ValidationIssue(IssueCode.UNKNOWN_TOOL_CALL, "c9", 0, GuardReason.NOT_IN_RUN)


def _state(
    *,
    run_state: RunState = RunState.RUNNING,
    facts: bool = True,
    stop: StopReason | None = None,
    context: bool = True,
    expired: int = 0,
    agent_failure: ModelFailureReason | None = None,
) -> ReleaseState:
    collected = Collected((SOURCE,) if facts else (), (FACT,) if facts else (), (), stop)
    return ReleaseState("run-1", run_state, None, context, collected, expired, agent_failure)


def _outcome(state: ReleaseState, finding: ReleaseFinding) -> tuple[str, str | None, str | None]:
    result = decide_release(state, finding).result
    fallback = result.fallback
    return (
        result.outcome.value,
        None if result.failure_code is None else result.failure_code.value,
        None if fallback is None else fallback.type.value,
    )


def test_supported_is_the_only_success() -> None:
    assert _outcome(_state(), SemanticSupported(PUBLISHED)) == ("SUCCESS", None, None)


def test_a_log_that_does_not_verify_fails_and_ends_the_run_failed() -> None:
    decision = decide_release(_state(), LogUnverified(FailureCode.LOG_CORRUPTED))
    assert decision.result.failure_code is FailureCode.LOG_CORRUPTED
    assert decision.result.run_state is RunState.FAILED
    assert decision.events[0] == RunEnded(RunState.FAILED, FailureCode.LOG_CORRUPTED)


def test_terminal_states_propagate_before_anything_the_draft_says() -> None:
    cancelled = _state(run_state=RunState.CANCELLED)
    assert _outcome(cancelled, SemanticSupported(PUBLISHED)) == (
        "CANCELLED",
        "RUN_CANCELLED",
        None,
    )
    exhausted = _state(run_state=RunState.BUDGET_EXHAUSTED)
    assert _outcome(exhausted, Terminated()) == ("FALLBACK", None, "INSUFFICIENT_EVIDENCE")
    timed_out = _state(run_state=RunState.TIMED_OUT, facts=False)
    assert _outcome(timed_out, Terminated()) == ("FAILED", "RUN_TIMED_OUT", None)


def test_a_protocol_violation_is_never_a_success() -> None:
    state = _state(stop=StopReason.PROGRESS_PROTOCOL_VIOLATED)
    assert _outcome(state, SemanticSupported(PUBLISHED)) == (
        "FALLBACK",
        None,
        "INSUFFICIENT_EVIDENCE",
    )
    fallback = decide_release(state, ProtocolViolated(())).result.fallback
    assert fallback is not None
    assert [issue.code for issue in fallback.validation_issues] == [IssueCode.PROTOCOL_VIOLATED]
    without_facts = _state(stop=StopReason.PROGRESS_PROTOCOL_VIOLATED, facts=False)
    assert _outcome(without_facts, ProtocolViolated(())) == (
        "FAILED",
        "NO_VERIFIED_EVIDENCE",
        None,
    )


def test_nothing_verified_fails_with_the_reason_nothing_remains() -> None:
    empty = _state(facts=False)
    assert _outcome(empty, EvidenceRejected((EXPIRED,)))[1] == "EVIDENCE_EXPIRED"
    assert _outcome(_state(facts=False, expired=2), NoDraft())[1] == "EVIDENCE_EXPIRED"
    assert _outcome(empty, EvidenceRejected((TAMPERED,)))[1] == "EVIDENCE_TAMPERED"
    assert _outcome(empty, EvidenceRejected((UNKNOWN,)))[1] == "NO_VERIFIED_EVIDENCE"
    assert _outcome(empty, DraftMalformed("NOT_JSON"))[1] == "NO_VERIFIED_EVIDENCE"
    down = _state(facts=False, agent_failure=ModelFailureReason.CONNECTION_REFUSED)
    assert _outcome(down, NoDraft())[1] == "MODEL_UNAVAILABLE"
    judge_down = SemanticUnavailable(ModelFailureReason.HTTP_5XX)
    assert _outcome(empty, judge_down)[1] == "MODEL_UNAVAILABLE"


def test_a_model_outage_with_facts_is_a_fallback_that_names_it() -> None:
    state = _state(agent_failure=ModelFailureReason.TIMEOUT)
    fallback = decide_release(state, NoDraft()).result.fallback
    assert fallback is not None
    assert fallback.type.value == "INSUFFICIENT_EVIDENCE"
    assert any("TIMEOUT" in note for note in fallback.limitations)


findings = st.one_of(
    st.just(NoDraft()),
    st.just(Terminated()),
    st.just(InternalFailure()),
    st.builds(DraftMalformed, st.sampled_from(["NOT_JSON", "INVALID"])),
    st.builds(
        LogUnverified, st.sampled_from([FailureCode.LOG_CORRUPTED, FailureCode.STORE_DIVERGED])
    ),
    st.builds(ProtocolViolated, st.just((UNKNOWN,))),
    st.builds(EvidenceRejected, st.sampled_from([(EXPIRED,), (TAMPERED,), (UNKNOWN,)])),
    st.just(SemanticSupported(PUBLISHED)),
    st.just(SemanticRejected((ValidationIssue(IssueCode.UNGROUNDED_CLAIM, None, 0),))),
    st.builds(SemanticUnavailable, st.sampled_from([None, *ModelFailureReason])),
)
states = st.builds(
    _state,
    run_state=st.sampled_from(list(RunState)),
    facts=st.booleans(),
    stop=st.sampled_from([None, *StopReason]),
    context=st.booleans(),
    expired=st.integers(0, 2),
    agent_failure=st.sampled_from([None, *ModelFailureReason]),
)


@given(states, findings)
def test_every_decision_is_recorded_once_and_succeeds_only_when_it_may(
    state: ReleaseState, finding: ReleaseFinding
) -> None:
    decision = decide_release(state, finding)
    result = decision.result
    decided = [event for event in decision.events if isinstance(event, ReleaseDecided)]
    assert len(decided) == 1
    assert decided[0].result_digest == sha256_hex(decision.body)
    assert decided[0].outcome is result.outcome
    ended = [event for event in decision.events if isinstance(event, RunEnded)]
    assert len(ended) == (1 if state.run_state is RunState.RUNNING else 0)
    may_succeed = (
        isinstance(finding, SemanticSupported)
        and state.run_state is RunState.RUNNING
        and state.context_complete
        and state.collected.stop_reason is not StopReason.PROGRESS_PROTOCOL_VIOLATED
    )
    assert (result.outcome.value == "SUCCESS") == may_succeed
    if isinstance(finding, LogUnverified):
        assert (result.outcome.value, result.failure_code) == ("FAILED", finding.code)
    if result.outcome.value == "FAILED":
        assert result.failure_code is not FailureCode.INVALID_INPUT
