"""The release decision: a pure function from the run's state and what the release found to
the events that record it and the result the user receives.

``decide_release(state, finding)`` applies the rules in order:

1. A log that does not verify is never published from: FAILED with LOG_CORRUPTED or
   STORE_DIVERGED, the run ended FAILED. An internal failure is FAILED, INTERNAL_FAILURE.
2. Terminal run states propagate as they are: CANCELLED; BUDGET_EXHAUSTED and TIMED_OUT as an
   INSUFFICIENT_EVIDENCE fallback from the facts, or FAILED without facts; FAILED as FAILED.
3. A run without a service and a window is a MISSING_REQUIRED_CONTEXT fallback.
4. A run stopped with PROGRESS_PROTOCOL_VIOLATED never ends in SUCCESS: whatever its draft,
   an INSUFFICIENT_EVIDENCE fallback listing PROTOCOL_VIOLATED.
5. Otherwise the finding decides: no draft or a malformed one, evidence rejected, semantically
   unsupported or unavailable are fallbacks; supported is SUCCESS, the only success exit.

A fallback that has no verified fact may not exist: the release is FAILED with the code that
says why nothing remains (MODEL_UNAVAILABLE, EVIDENCE_EXPIRED, EVIDENCE_TAMPERED, else
NO_VERIFIED_EVIDENCE). When the release ends a RUNNING run, the run ends SUCCESS (it ended
without a technical terminal condition) unless rule 1 applies.
"""

from __future__ import annotations

from typing import assert_never

from attrs import frozen

from factledger.domain.codec import canonical_json, sha256_hex
from factledger.domain.events import Event
from factledger.domain.model_failure import ModelFailureReason
from factledger.domain.release.events import FailureStage, RecordedIssue, ReleaseDecided
from factledger.domain.release.fallback import (
    NoVerifiedFact,
    PublishedResult,
    ReleaseResult,
    SafeFallback,
)
from factledger.domain.release.findings import (
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
from factledger.domain.release.next_steps import OUTAGE_STEP, next_steps
from factledger.domain.run_events import RunEnded
from factledger.domain.status import (
    FailureCode,
    FallbackType,
    ReleaseOutcome,
    RunState,
    StopReason,
)

__all__ = ["ReleaseDecision", "decide_release", "unrecorded"]

_PROTOCOL_ISSUE = ValidationIssue(
    IssueCode.PROTOCOL_VIOLATED, reason=GuardReason.STOPPED_FOR_PROTOCOL
)


@frozen
class ReleaseDecision:
    """What the release decided: the events to append and the result to return once they are
    in the store."""

    result: ReleaseResult
    """What the user receives."""
    events: tuple[Event, ...]
    """RELEASE_DECISION, with RUN_ENDED when the decision ends the run."""
    body: bytes
    """The result's canonical JSON, kept in the vault under the digest the event records."""


@frozen
class _Fallback:
    """A fallback the decision wants, before it knows whether facts allow it."""

    kind: FallbackType
    stage: FailureStage
    issues: tuple[ValidationIssue, ...] = ()
    outage: ModelFailureReason | None = None


def decide_release(state: ReleaseState, finding: ReleaseFinding) -> ReleaseDecision:
    """The decision (see the module doc)."""
    match finding:
        case LogUnverified():
            return _failed(state, finding.code, ends=RunState.FAILED)
        case InternalFailure():
            return _failed(state, FailureCode.INTERNAL_FAILURE, ends=RunState.FAILED)
        case _:
            pass
    if state.run_state is not RunState.RUNNING:
        return _terminal(state)
    if isinstance(finding, Terminated):  # the run is RUNNING: a contradiction, closed
        return _failed(state, FailureCode.INTERNAL_FAILURE, ends=RunState.FAILED)
    if not state.context_complete:
        return _missing_context(state)
    if state.collected.stop_reason is StopReason.PROGRESS_PROTOCOL_VIOLATED:
        return _fallback(state, _protocol(finding))
    return _on_finding(state, finding)


def _on_finding(state: ReleaseState, finding: ReleaseFinding) -> ReleaseDecision:
    collection = FailureStage.DIAGNOSIS_COLLECTION
    match finding:
        case NoDraft():
            outage = state.agent_model_failure
            wanted = _Fallback(FallbackType.INSUFFICIENT_EVIDENCE, collection, outage=outage)
            return _fallback(state, wanted)
        case DraftMalformed():
            issue = ValidationIssue(IssueCode.MALFORMED_DRAFT, reason=finding.reason)
            wanted = _Fallback(FallbackType.INSUFFICIENT_EVIDENCE, collection, (issue,))
            return _fallback(state, wanted)
        case EvidenceRejected():
            return _fallback(
                state,
                _Fallback(
                    FallbackType.EVIDENCE_VALIDATION_FAILED,
                    FailureStage.EVIDENCE_VALIDATION,
                    finding.issues,
                    finding.repair_outage,
                ),
            )
        case SemanticSupported():
            return _success(state, finding.published)
        case SemanticRejected():
            return _fallback(
                state,
                _Fallback(
                    FallbackType.SEMANTIC_UNSUPPORTED,
                    FailureStage.SEMANTIC_VALIDATION,
                    finding.issues,
                ),
            )
        case SemanticUnavailable():
            stage = FailureStage.SEMANTIC_VALIDATION
            wanted = _Fallback(FallbackType.SEMANTIC_UNAVAILABLE, stage, outage=finding.outage)
            return _fallback(state, wanted)
        case (
            ProtocolViolated() | LogUnverified() | InternalFailure() | Terminated()
        ):  # pragma: no cover - decided before
            return _failed(state, FailureCode.INTERNAL_FAILURE, ends=RunState.FAILED)
        case _:
            assert_never(finding)


def _protocol(finding: ReleaseFinding) -> _Fallback:
    """Rule 4: whatever was found, the protocol violation decides."""
    found: tuple[ValidationIssue, ...] = ()
    if isinstance(finding, ProtocolViolated | EvidenceRejected | SemanticRejected):
        found = finding.issues
    elif isinstance(finding, DraftMalformed):
        found = (ValidationIssue(IssueCode.MALFORMED_DRAFT, reason=finding.reason),)
    return _Fallback(
        FallbackType.INSUFFICIENT_EVIDENCE,
        FailureStage.DIAGNOSIS_COLLECTION,
        (_PROTOCOL_ISSUE, *found),
    )


def _terminal(state: ReleaseState) -> ReleaseDecision:
    """Rule 2: terminal run states propagate as they are, never as a business fallback."""
    match state.run_state:
        case RunState.CANCELLED:
            return _decided(state, ReleaseOutcome.CANCELLED, code=FailureCode.RUN_CANCELLED)
        case RunState.BUDGET_EXHAUSTED | RunState.TIMED_OUT:
            code = (
                FailureCode.BUDGET_EXHAUSTED
                if state.run_state is RunState.BUDGET_EXHAUSTED
                else FailureCode.RUN_TIMED_OUT
            )
            wanted = _Fallback(
                FallbackType.INSUFFICIENT_EVIDENCE, FailureStage.DIAGNOSIS_COLLECTION
            )
            fallback = _build(state, wanted)
            if isinstance(fallback, NoVerifiedFact):
                return _decided(state, ReleaseOutcome.FAILED, code=code)
            return _decided(state, ReleaseOutcome.FALLBACK, fallback=fallback)
        case RunState.FAILED | RunState.SUCCESS | RunState.RUNNING:
            code = state.run_failure_code or FailureCode.INTERNAL_FAILURE
            return _decided(state, ReleaseOutcome.FAILED, code=code)
        case _:
            assert_never(state.run_state)


def _missing_context(state: ReleaseState) -> ReleaseDecision:
    fallback = SafeFallback.build(
        FallbackType.MISSING_REQUIRED_CONTEXT,
        verified_sources=(),
        observed_facts=(),
        limitations=("The run was started without a service and a time window.",),
        next_steps=next_steps(FallbackType.MISSING_REQUIRED_CONTEXT, None),
        failure_stage=FailureStage.DIAGNOSIS_INPUT,
    )
    assert isinstance(fallback, SafeFallback)  # MISSING_REQUIRED_CONTEXT needs no fact
    return _decided(state, ReleaseOutcome.FALLBACK, fallback=fallback)


def _fallback(state: ReleaseState, wanted: _Fallback) -> ReleaseDecision:
    fallback = _build(state, wanted)
    if isinstance(fallback, SafeFallback):
        return _decided(state, ReleaseOutcome.FALLBACK, fallback=fallback)
    return _decided(
        state, ReleaseOutcome.FAILED, code=_why_nothing(state, wanted), issues=wanted.issues
    )


def _build(state: ReleaseState, wanted: _Fallback) -> SafeFallback | NoVerifiedFact:
    collected = state.collected
    steps = next_steps(wanted.kind, collected.stop_reason)
    limitations = collected.limitations
    if wanted.outage is not None:
        steps = (*steps, OUTAGE_STEP)
        limitations = (*limitations, _outage_note(wanted))
    return SafeFallback.build(
        wanted.kind,
        verified_sources=collected.verified_sources,
        observed_facts=collected.observed_facts,
        limitations=limitations,
        next_steps=steps,
        failure_stage=wanted.stage,
        validation_issues=wanted.issues,
        stop_reason=collected.stop_reason,
    )


def _outage_note(wanted: _Fallback) -> str:
    reason = "" if wanted.outage is None else f" ({wanted.outage.value})"
    match wanted.stage:
        case FailureStage.SEMANTIC_VALIDATION:
            return f"The semantic judge's model could not be reached{reason}."
        case FailureStage.EVIDENCE_VALIDATION:
            return f"The repair model could not be reached{reason}."
        case FailureStage.DIAGNOSIS_COLLECTION | FailureStage.DIAGNOSIS_INPUT:
            return f"The agent's model could not be reached{reason}; the diagnosis stopped."
        case _:
            assert_never(wanted.stage)


def _why_nothing(state: ReleaseState, wanted: _Fallback) -> FailureCode:
    """Why a fallback had no verified fact to carry."""
    if wanted.outage is not None:
        return FailureCode.MODEL_UNAVAILABLE
    codes = {issue.code for issue in wanted.issues}
    if state.expired_calls or IssueCode.EVIDENCE_EXPIRED in codes:
        return FailureCode.EVIDENCE_EXPIRED
    if any(issue.reason == GuardReason.BODY_TAMPERED for issue in wanted.issues):
        return FailureCode.EVIDENCE_TAMPERED
    return FailureCode.NO_VERIFIED_EVIDENCE


def _success(state: ReleaseState, published: PublishedResult) -> ReleaseDecision:
    return _decided(state, ReleaseOutcome.SUCCESS, published=published)


def _failed(state: ReleaseState, code: FailureCode, *, ends: RunState) -> ReleaseDecision:
    """FAILED for a technical condition: a RUNNING run ends ``ends`` first."""
    run_state = ends if state.run_state is RunState.RUNNING else state.run_state
    result = ReleaseResult(state.run_id, ReleaseOutcome.FAILED, run_state, code, None, None)
    ended: tuple[Event, ...] = ()
    if state.run_state is RunState.RUNNING:
        ended = (RunEnded(ends, code),)
    return _recorded(result, (), ended, ())


def _decided(
    state: ReleaseState,
    outcome: ReleaseOutcome,
    *,
    fallback: SafeFallback | None = None,
    published: PublishedResult | None = None,
    code: FailureCode | None = None,
    issues: tuple[ValidationIssue, ...] = (),
) -> ReleaseDecision:
    running = state.run_state is RunState.RUNNING
    run_state = RunState.SUCCESS if running else state.run_state
    result = ReleaseResult(state.run_id, outcome, run_state, code, published, fallback)
    after: tuple[Event, ...] = (RunEnded(RunState.SUCCESS, None),) if running else ()
    listed = fallback.validation_issues if fallback is not None else issues
    return _recorded(result, listed, (), after)


def _recorded(
    result: ReleaseResult,
    issues: tuple[ValidationIssue, ...],
    before: tuple[Event, ...],
    after: tuple[Event, ...],
) -> ReleaseDecision:
    body = canonical_json(result.to_json())
    fallback = result.fallback
    published = result.published_result
    decided = ReleaseDecided(
        outcome=result.outcome,
        run_state=result.run_state,
        failure_code=result.failure_code,
        fallback_type=None if fallback is None else fallback.type,
        failure_stage=None if fallback is None else fallback.failure_stage,
        issues=tuple(RecordedIssue(i.code, i.tool_call_id, i.analysis_index) for i in issues),
        facts=0 if fallback is None else len(fallback.observed_facts),
        sources=len(published.source_documents if published else ())
        + (len(fallback.verified_sources) if fallback else 0),
        result_digest=sha256_hex(body),
    )
    return ReleaseDecision(result, (*before, decided, *after), body)


def unrecorded(run_id: str, code: FailureCode) -> ReleaseResult:
    """The store cannot record a decision: FAILED, closed, never anything else."""
    return ReleaseResult(run_id, ReleaseOutcome.FAILED, RunState.FAILED, code, None, None)
