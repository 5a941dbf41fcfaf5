"""The single release point (SPEC §8): the only place that publishes.

In order: (1) terminal run states propagate as they are; (2) a run without its required
context is a MISSING_REQUIRED_CONTEXT fallback; (3) no draft or a malformed one is an
INSUFFICIENT_EVIDENCE fallback from the progress snapshot; (4) the EvidenceGuard checks every
citation, EvidenceRepair may fix citations only, the guard re-checks; (5) the SemanticGuard
judges the verified evidence against the claims: SUPPORTED is the only way to SUCCESS. Every
step is an event, and the decision is recorded once, with the run's end, before anything is
returned: a release the store cannot record is never a SUCCESS.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import TypeAlias

from attrs import frozen
from returns.result import Success

from factledger.application.canonical_view import CanonicalViewReader
from factledger.application.contracts.draft import MalformedDraft, parse_draft
from factledger.application.progress_snapshot import ProgressSnapshot, SnapshotBuilder
from factledger.application.release.evidence_guard import (
    EvidenceGuard,
    GuardFailed,
    GuardPassed,
    GuardVerdict,
)
from factledger.application.release.next_steps import next_steps
from factledger.application.run_repository import (
    Committed,
    ExecuteOutcome,
    RunRepository,
    StoreFailed,
)
from factledger.application.run_service import RunService
from factledger.application.tools.registry import ToolRegistry
from factledger.domain.codec import canonical_json, sha256_hex
from factledger.domain.events import Event
from factledger.domain.invocation import Ready
from factledger.domain.json_types import JsonObject
from factledger.domain.release.draft import Draft
from factledger.domain.release.events import (
    EvidenceGuardInitialChecked,
    EvidenceGuardRechecked,
    EvidenceRepairAttempted,
    FailureStage,
    RecordedIssue,
    ReleaseDecided,
    RepairOutcome,
    SemanticAttempted,
    SemanticDecided,
    SemanticVerdict,
)
from factledger.domain.release.fallback import (
    NoVerifiedFact,
    PublishedResult,
    ReleaseResult,
    SafeFallback,
)
from factledger.domain.release.issues import IssueCode, ValidationIssue
from factledger.domain.run_errors import BudgetExhausted, DeadlinePassed
from factledger.domain.run_events import ModelCallPurpose, RunEnded
from factledger.domain.run_log import RunLog
from factledger.domain.status import (
    EvidenceStatus,
    FailureCode,
    FallbackType,
    ReleaseOutcome,
    RunState,
)
from factledger.ports.clock import Clock
from factledger.ports.draft_repair import CitableCall, DraftRepairer, RepairRequest
from factledger.ports.payload_vault import PayloadKey, PayloadVault, PayloadWrite
from factledger.ports.semantic_judge import (
    JudgeRequest,
    JudgeSupported,
    JudgeUnavailable,
    JudgeUnsupported,
    SemanticJudge,
)
from factledger.ports.telemetry import SILENT, CallLog, ReleaseLogged

__all__ = [
    "AlreadyReleased",
    "ReleaseOutcomeValue",
    "ReleasePolicy",
    "ReleaseService",
    "UnknownRun",
]


@frozen
class ReleasePolicy:
    """How hard the release tries before it falls back."""

    repair_attempts: int = 1
    """EvidenceRepair attempts (each a metered model call when the repairer is a model)."""
    judge_attempts: int = 2
    """SemanticGuard attempts while the judge is unavailable."""
    judge_timeout_seconds: float = 30.0
    """Time limit of one judge attempt."""
    result_ttl: timedelta = timedelta(hours=2)
    """How long the published result's body stays readable in the vault."""


@frozen
class AlreadyReleased:
    """The run was released before; a run completes once."""

    run_id: str
    """The run."""
    decision: ReleaseDecided
    """The recorded decision."""


@frozen
class UnknownRun:
    """No run with this id exists."""

    run_id: str
    """The id asked for."""


ReleaseOutcomeValue: TypeAlias = ReleaseResult | AlreadyReleased | UnknownRun
"""What ``release`` returns."""


class _Stop(Exception):
    """Internal: the release ends early with this result (a terminal state met mid-way)."""

    def __init__(self, result: ReleaseResult) -> None:
        super().__init__("release ended early")
        self.result = result


class ReleaseService:
    """Runs the release steps for one run."""

    def __init__(
        self,
        runs: RunRepository,
        run_service: RunService,
        canonical: CanonicalViewReader,
        registry: ToolRegistry,
        snapshots: SnapshotBuilder,
        judge: SemanticJudge,
        repairer: DraftRepairer,
        vault: PayloadVault,
        clock: Clock,
        policy: ReleasePolicy | None = None,
        call_log: CallLog = SILENT,
    ) -> None:
        self._log = call_log
        self._runs = runs
        self._run_service = run_service
        self._canonical = canonical
        self._registry = registry
        self._snapshots = snapshots
        self._guard = EvidenceGuard(canonical, registry)
        self._judge = judge
        self._repairer = repairer
        self._vault = vault
        self._clock = clock
        self._policy = policy or ReleasePolicy()

    # -- entry point ----------------------------------------------------------------------

    def release(
        self, run_id: str, draft_text: str | None, *, repairer: DraftRepairer | None = None
    ) -> ReleaseOutcomeValue:
        """Release a run with the agent's draft (``None``: it stopped without one); the
        decision ends with one log record (ids and codes, never the draft)."""
        started = time.perf_counter()
        outcome = self._release_closed(run_id, draft_text, repairer)
        self._log.release_decided(_logged(run_id, outcome, time.perf_counter() - started))
        return outcome

    def _release_closed(
        self, run_id: str, draft_text: str | None, repairer: DraftRepairer | None
    ) -> ReleaseOutcomeValue:
        try:
            return self._release(run_id, draft_text, repairer or self._repairer)
        except _Stop as stop:
            return stop.result
        except Exception:  # an internal failure must still end the run, closed
            return self._internal_failure(run_id)

    def _release(
        self, run_id: str, draft_text: str | None, repairer: DraftRepairer
    ) -> ReleaseOutcomeValue:
        log = self._runs.load(run_id)
        if isinstance(log, StoreFailed):
            return self._unrecorded(run_id, FailureCode.STORE_UNAVAILABLE)
        if log.run is None:
            return UnknownRun(run_id)
        if log.released is not None:
            return AlreadyReleased(run_id, log.released)
        if log.run.state is RunState.RUNNING and log.run.is_past_deadline(self._clock.now()):
            self._run_service.end(run_id, RunState.TIMED_OUT, FailureCode.RUN_TIMED_OUT)
            log = self._fresh(run_id)
        assert log.run is not None
        if log.run.state is not RunState.RUNNING:
            return self._terminal(log)
        if not log.run.context.is_complete:
            fallback = SafeFallback.build(
                FallbackType.MISSING_REQUIRED_CONTEXT,
                verified_sources=(),
                observed_facts=(),
                limitations=("The run was started without a service and a time window.",),
                next_steps=next_steps(FallbackType.MISSING_REQUIRED_CONTEXT, None),
                failure_stage=FailureStage.DIAGNOSIS_INPUT,
            )
            return self._decide(log, ReleaseOutcome.FALLBACK, fallback=fallback)
        snapshot = self._snapshot(log)
        if draft_text is None:
            return self._collection_fallback(log, snapshot, ())
        draft = parse_draft(draft_text)
        if isinstance(draft, MalformedDraft):
            issue = ValidationIssue(IssueCode.MALFORMED_DRAFT)
            return self._collection_fallback(log, snapshot, (issue,))
        return self._guarded(log, snapshot, draft, repairer)

    # -- steps ----------------------------------------------------------------------------

    def _guarded(
        self, log: RunLog, snapshot: ProgressSnapshot, draft: Draft, repairer: DraftRepairer
    ) -> ReleaseResult:
        run_id = log.run_id
        verdict = self._guard.check(log, draft)
        self._record(
            run_id,
            EvidenceGuardInitialChecked(
                passed=isinstance(verdict, GuardPassed),
                analyses=len(draft.analyses),
                citations=len(draft.cited_ids),
                issues=_recorded(verdict),
            ),
        )
        attempt = 0
        while isinstance(verdict, GuardFailed) and attempt < self._policy.repair_attempts:
            if _store_down(verdict):
                break
            attempt += 1
            self._meter(run_id, ModelCallPurpose.EVIDENCE_REPAIR, repairer.uses_model, snapshot)
            repaired, outcome = self._repair_once(log, draft, verdict, repairer, attempt)
            self._record(run_id, EvidenceRepairAttempted(attempt, outcome))
            if repaired is None:
                continue
            draft = repaired
            log = self._fresh(run_id)
            verdict = self._guard.check(log, draft)
            self._record(
                run_id,
                EvidenceGuardRechecked(
                    attempt=attempt,
                    passed=isinstance(verdict, GuardPassed),
                    analyses=len(draft.analyses),
                    citations=len(draft.cited_ids),
                    issues=_recorded(verdict),
                ),
            )
        if isinstance(verdict, GuardFailed):
            if _store_down(verdict):
                return self._unrecorded(run_id, FailureCode.STORE_UNAVAILABLE)
            fallback = self._fallback(
                FallbackType.EVIDENCE_VALIDATION_FAILED,
                snapshot,
                FailureStage.EVIDENCE_VALIDATION,
                verdict.issues,
            )
            return self._decide(
                self._fresh(run_id),
                ReleaseOutcome.FALLBACK,
                fallback=fallback,
                issues=verdict.issues,
            )
        return self._judged(run_id, snapshot, draft, verdict)

    def _repair_once(
        self,
        log: RunLog,
        draft: Draft,
        verdict: GuardFailed,
        repairer: DraftRepairer,
        attempt: int,
    ) -> tuple[Draft | None, RepairOutcome]:
        request = RepairRequest(
            draft=_draft_json(draft),
            issues=verdict.issues,
            citable=self._citable(log),
            attempt=attempt,
        )
        answer = repairer.repair(request)
        if not isinstance(answer, str):
            return None, RepairOutcome.UNAVAILABLE
        repaired = parse_draft(answer)
        if isinstance(repaired, MalformedDraft):
            return None, RepairOutcome.MALFORMED
        if not draft.same_semantics(repaired):
            return None, RepairOutcome.SEMANTICS_CHANGED
        return repaired, RepairOutcome.REPAIRED

    def _judged(
        self, run_id: str, snapshot: ProgressSnapshot, draft: Draft, passed: GuardPassed
    ) -> ReleaseResult:
        request = JudgeRequest(draft.conclusion, passed.snapshot.claims)
        verdict = SemanticVerdict.UNAVAILABLE
        unsupported: tuple[int, ...] = ()
        attempts = 0
        for attempt in range(1, self._policy.judge_attempts + 1):
            attempts = attempt
            self._ensure_running(run_id, snapshot)
            self._meter(run_id, ModelCallPurpose.SEMANTIC_JUDGE, self._judge.uses_model, snapshot)
            answer = self._judge.judge(request, self._policy.judge_timeout_seconds)
            if answer.usage is not None:
                self._run_service.record_model_usage(
                    run_id, ModelCallPurpose.SEMANTIC_JUDGE, *answer.usage
                )
            match answer:
                case JudgeSupported():
                    verdict, reason = SemanticVerdict.SUPPORTED, None
                case JudgeUnsupported():
                    verdict, reason = SemanticVerdict.UNSUPPORTED, answer.reason
                    unsupported = answer.unsupported
                case JudgeUnavailable():
                    verdict, reason = SemanticVerdict.UNAVAILABLE, answer.reason
            self._record(run_id, SemanticAttempted(attempt, self._judge.name, verdict, reason))
            if verdict is not SemanticVerdict.UNAVAILABLE:
                break
        self._record(run_id, SemanticDecided(verdict, attempts, unsupported))
        log = self._fresh(run_id)
        if verdict is SemanticVerdict.SUPPORTED:
            published = PublishedResult(draft.conclusion, draft.analyses, passed.snapshot.sources)
            return self._decide(log, ReleaseOutcome.SUCCESS, published=published)
        if verdict is SemanticVerdict.UNSUPPORTED:
            issues = tuple(
                ValidationIssue(IssueCode.UNGROUNDED_CLAIM, None, None if i < 0 else i)
                for i in unsupported
            )
            fallback = self._fallback(
                FallbackType.SEMANTIC_UNSUPPORTED,
                snapshot,
                FailureStage.SEMANTIC_VALIDATION,
                issues,
            )
        else:
            fallback = self._fallback(
                FallbackType.SEMANTIC_UNAVAILABLE, snapshot, FailureStage.SEMANTIC_VALIDATION, ()
            )
        return self._decide(log, ReleaseOutcome.FALLBACK, fallback=fallback)

    # -- outcomes -------------------------------------------------------------------------

    def _terminal(self, log: RunLog) -> ReleaseResult:
        """Step 1: terminal run states propagate as they are, never as a business fallback."""
        run = log.run
        assert run is not None
        match run.state:
            case RunState.CANCELLED:
                return self._decide(log, ReleaseOutcome.CANCELLED, code=FailureCode.RUN_CANCELLED)
            case RunState.BUDGET_EXHAUSTED | RunState.TIMED_OUT:
                code = (
                    FailureCode.BUDGET_EXHAUSTED
                    if run.state is RunState.BUDGET_EXHAUSTED
                    else FailureCode.RUN_TIMED_OUT
                )
                snapshot = self._snapshot(log)
                fallback = self._fallback(
                    FallbackType.INSUFFICIENT_EVIDENCE,
                    snapshot,
                    FailureStage.DIAGNOSIS_COLLECTION,
                    (),
                )
                if isinstance(fallback, NoVerifiedFact):
                    return self._decide(log, ReleaseOutcome.FAILED, code=code)
                return self._decide(log, ReleaseOutcome.FALLBACK, fallback=fallback)
            case _:
                return self._decide(log, ReleaseOutcome.FAILED, code=FailureCode.INTERNAL_FAILURE)

    def _collection_fallback(
        self, log: RunLog, snapshot: ProgressSnapshot, issues: tuple[ValidationIssue, ...]
    ) -> ReleaseResult:
        """Step 2: the agent stopped without a (valid) draft."""
        fallback = self._fallback(
            FallbackType.INSUFFICIENT_EVIDENCE, snapshot, FailureStage.DIAGNOSIS_COLLECTION, issues
        )
        return self._decide(log, ReleaseOutcome.FALLBACK, fallback=fallback, issues=issues)

    def _fallback(
        self,
        kind: FallbackType,
        snapshot: ProgressSnapshot,
        stage: FailureStage,
        issues: tuple[ValidationIssue, ...],
    ) -> SafeFallback | NoVerifiedFact:
        return SafeFallback.build(
            kind,
            verified_sources=snapshot.verified_sources,
            observed_facts=snapshot.observed_facts,
            limitations=snapshot.limitations,
            next_steps=next_steps(kind, snapshot.stop_reason),
            failure_stage=stage,
            validation_issues=issues,
            stop_reason=snapshot.stop_reason,
        )

    def _decide(
        self,
        log: RunLog,
        outcome: ReleaseOutcome,
        *,
        fallback: SafeFallback | NoVerifiedFact | None = None,
        published: PublishedResult | None = None,
        code: FailureCode | None = None,
        issues: tuple[ValidationIssue, ...] = (),
    ) -> ReleaseResult:
        """Record the decision (and the run's end) once; only then return it."""
        if isinstance(fallback, NoVerifiedFact):
            # Fail closed: nothing verified may be published.
            outcome, fallback = ReleaseOutcome.FAILED, None
            code = code or FailureCode.INVALID_INPUT
        run = log.run
        assert run is not None
        running = run.state is RunState.RUNNING
        run_state = RunState.SUCCESS if running else run.state
        result = ReleaseResult(
            run_id=log.run_id,
            outcome=outcome,
            run_state=run_state,
            failure_code=code,
            published_result=published,
            fallback=fallback,
        )
        body = canonical_json(result.to_json())
        listed = fallback.validation_issues if fallback is not None else issues
        decided = ReleaseDecided(
            outcome=outcome,
            run_state=run_state,
            failure_code=code,
            fallback_type=None if fallback is None else fallback.type,
            failure_stage=None if fallback is None else fallback.failure_stage,
            issues=tuple(RecordedIssue(i.code, i.tool_call_id, i.analysis_index) for i in listed),
            facts=0 if fallback is None else len(fallback.observed_facts),
            sources=len(published.source_documents if published else ())
            + (len(fallback.verified_sources) if fallback else 0),
            result_digest=sha256_hex(body),
        )
        events: tuple[Event, ...] = (decided,)
        if running:
            events += (RunEnded(RunState.SUCCESS, None),)
        expires_at = self._clock.now() + self._policy.result_ttl
        stored = PayloadWrite(PayloadKey.of_release(log.run_id), body, expires_at)

        def decide(current: RunLog) -> Success[tuple[Event, ...]]:
            if current.released is not None:
                return Success(())
            if running and (current.run is None or current.run.state is not RunState.RUNNING):
                raise _RunChanged
            return Success(events)

        try:
            committed = self._runs.execute(log.run_id, decide, payloads=lambda _: (stored,))
        except _RunChanged:
            # The run ended while we released (a cancel, a deadline): that state wins.
            return self._terminal(self._fresh(log.run_id))
        if not isinstance(committed, Committed):
            return self._unrecorded(log.run_id, FailureCode.STORE_UNAVAILABLE)
        return result

    def _unrecorded(self, run_id: str, code: FailureCode) -> ReleaseResult:
        """The store cannot record a decision: FAILED, closed, never anything else."""
        return ReleaseResult(run_id, ReleaseOutcome.FAILED, RunState.FAILED, code, None, None)

    def _internal_failure(self, run_id: str) -> ReleaseOutcomeValue:
        self._run_service.end(run_id, RunState.FAILED, FailureCode.INTERNAL_FAILURE)
        log = self._runs.load(run_id)
        if isinstance(log, StoreFailed) or log.run is None:
            return self._unrecorded(run_id, FailureCode.INTERNAL_FAILURE)
        if log.released is not None:
            return AlreadyReleased(run_id, log.released)
        try:
            return self._decide(log, ReleaseOutcome.FAILED, code=FailureCode.INTERNAL_FAILURE)
        except Exception:  # the store itself is failing: report, closed
            return self._unrecorded(run_id, FailureCode.INTERNAL_FAILURE)

    # -- helpers --------------------------------------------------------------------------

    def _fresh(self, run_id: str) -> RunLog:
        log = self._runs.load(run_id)
        if isinstance(log, StoreFailed):
            raise _Stop(self._unrecorded(run_id, FailureCode.STORE_UNAVAILABLE))
        return log

    def _snapshot(self, log: RunLog) -> ProgressSnapshot:
        snapshot = self._snapshots.build_from(log)
        if isinstance(snapshot, StoreFailed):
            raise _Stop(self._unrecorded(log.run_id, FailureCode.STORE_UNAVAILABLE))
        return snapshot

    def _record(self, run_id: str, event: Event) -> None:
        outcome = self._runs.execute(run_id, lambda _: Success((event,)))
        if isinstance(outcome, StoreFailed):
            raise _Stop(self._unrecorded(run_id, FailureCode.STORE_UNAVAILABLE))

    def _meter(
        self, run_id: str, purpose: ModelCallPurpose, uses_model: bool, _: ProgressSnapshot
    ) -> None:
        """Reserve a model call; an exhausted budget or a passed deadline ends the run."""
        if not uses_model:
            return
        outcome = self._run_service.reserve_model_call(run_id, purpose)
        self._after_reservation(run_id, outcome)

    def _after_reservation(self, run_id: str, outcome: ExecuteOutcome) -> None:
        if isinstance(outcome, Committed):
            return
        if isinstance(outcome, StoreFailed):
            raise _Stop(self._unrecorded(run_id, FailureCode.STORE_UNAVAILABLE))
        error = outcome.error
        if isinstance(error, BudgetExhausted):
            self._run_service.end(run_id, RunState.BUDGET_EXHAUSTED, FailureCode.BUDGET_EXHAUSTED)
        elif isinstance(error, DeadlinePassed):
            self._run_service.end(run_id, RunState.TIMED_OUT, FailureCode.RUN_TIMED_OUT)
        raise _Stop(self._terminal(self._fresh(run_id)))

    def _ensure_running(self, run_id: str, _: ProgressSnapshot) -> None:
        """Cancellation and deadlines reach the release between its attempts."""
        log = self._fresh(run_id)
        run = log.run
        assert run is not None
        if run.state is RunState.RUNNING and run.is_past_deadline(self._clock.now()):
            self._run_service.end(run_id, RunState.TIMED_OUT, FailureCode.RUN_TIMED_OUT)
            log = self._fresh(run_id)
        if log.run is not None and log.run.state is not RunState.RUNNING:
            raise _Stop(self._terminal(log))

    def _citable(self, log: RunLog) -> tuple[CitableCall, ...]:
        ready = [i for i in log.invocations.values() if isinstance(i, Ready)]
        records = self._canonical.read_from_log(log, [i.info.tool_call_id for i in ready])
        if isinstance(records, StoreFailed):
            return ()
        citable: list[CitableCall] = []
        for invocation in ready:
            record = records.get(invocation.info.tool_call_id)
            scope: JsonObject = {}
            if record is not None and record.agent_result is not None:
                found = record.agent_result.get("scope")
                scope = found if isinstance(found, dict) else {}
            citable.append(
                CitableCall(
                    invocation.info.tool_call_id,
                    invocation.info.tool_name,
                    scope,
                    EvidenceStatus(invocation.evidence_status),
                )
            )
        return tuple(citable)


class _RunChanged(Exception):
    """Internal: the run left RUNNING between the decision and its append."""


def _store_down(verdict: GuardVerdict) -> bool:
    return isinstance(verdict, GuardFailed) and any(
        issue.code is IssueCode.STORE_UNAVAILABLE for issue in verdict.issues
    )


def _recorded(verdict: GuardVerdict) -> tuple[RecordedIssue, ...]:
    if isinstance(verdict, GuardPassed):
        return ()
    return tuple(RecordedIssue(i.code, i.tool_call_id, i.analysis_index) for i in verdict.issues)


def _draft_json(draft: Draft) -> JsonObject:
    return {
        "conclusion": draft.conclusion,
        "analyses": [analysis.to_json() for analysis in draft.analyses],
    }


def _logged(run_id: str, outcome: ReleaseOutcomeValue, seconds: float) -> ReleaseLogged:
    if not isinstance(outcome, ReleaseResult):
        code = "ALREADY_RELEASED" if isinstance(outcome, AlreadyReleased) else "UNKNOWN_RUN"
        return ReleaseLogged(run_id, None, None, None, None, code, seconds * 1000)
    fallback = outcome.fallback
    return ReleaseLogged(
        run_id=run_id,
        outcome=outcome.outcome,
        fallback_type=None if fallback is None else fallback.type,
        failure_stage=None if fallback is None else fallback.failure_stage,
        failure_code=outcome.failure_code,
        code="DECIDED",
        duration_ms=seconds * 1000,
    )
