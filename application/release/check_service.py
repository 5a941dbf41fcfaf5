"""``check(run_id, draft)``: the release's guards without the release.

The run's log is verified as for a release; then the EvidenceGuard and, when the evidence
holds, the SemanticGuard judge the draft exactly as the release would, but nothing is
published, the run does not end and no repair is tried. A run may have
``[release] check_attempts`` drafts checked (counted in its log, atomically); each check is
one DRAFT_CHECK event with codes and reasons only, and a model judge's attempts are metered
model calls as in a release. A run stopped with PROGRESS_PROTOCOL_VIOLATED never passes.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from attrs import frozen
from returns.result import Success

from factledger.application.check_result import CheckResult
from factledger.application.contracts.draft import MalformedDraft, parse_draft
from factledger.application.release.evidence_guard import (
    EvidenceGuard,
    GuardFailed,
    VerifiedEvidenceSnapshot,
)
from factledger.application.release.opening import Opened, RunOpener, Unverified
from factledger.application.release.outcomes import (
    AlreadyReleased,
    RunLeft,
    StoreDown,
    UnknownRun,
)
from factledger.application.release.recorder import ReleaseRecorder, StepLog
from factledger.application.release.semantic_guard import Judged, SemanticGuard
from factledger.application.run_repository import Committed, RunRepository, StoreFailed
from factledger.application.store_failures import failure_code_of
from factledger.domain.release.draft import Draft
from factledger.domain.release.events import (
    CheckedIssue,
    DraftChecked,
    FailureStage,
    SemanticVerdict,
)
from factledger.domain.release.issues import GuardReason, IssueCode, ValidationIssue
from factledger.domain.run_decisions import Decision
from factledger.domain.run_log import RunLog
from factledger.domain.safe_code import safe_code
from factledger.domain.status import FailureCode, RunState, StopReason

__all__ = ["CheckRefusal", "CheckRefused", "CheckService"]

CheckRefusal: TypeAlias = Literal[
    "UNKNOWN_RUN",
    "ALREADY_RELEASED",
    "RUN_NOT_ACTIVE",
    "MISSING_REQUIRED_CONTEXT",
    "CHECK_LIMIT_REACHED",
    "STORE_UNAVAILABLE",
    "LOG_CORRUPTED",
    "STORE_DIVERGED",
    "INTERNAL_FAILURE",
]
"""Why a draft was not checked: no such run, already released, no longer running (or it
stopped during the check), started without its context, no check left, the store down, its
log corrupted or diverged, or a judge that crashed."""


@frozen
class CheckRefused:
    """The draft was not checked."""

    run_id: str
    """The run."""
    code: CheckRefusal
    """Why."""


@frozen
class _Found:
    stage: FailureStage | None
    verdict: SemanticVerdict | None
    issues: tuple[ValidationIssue, ...] = ()


class CheckService:
    """Checks drafts (see the module doc)."""

    def __init__(
        self,
        runs: RunRepository,
        opener: RunOpener,
        guard: EvidenceGuard,
        semantic: SemanticGuard,
        recorder: ReleaseRecorder,
        *,
        attempts: int,
    ) -> None:
        self._runs = runs
        self._opener = opener
        self._guard = guard
        self._semantic = semantic
        self._recorder = recorder
        self._attempts = attempts

    def check(self, run_id: str, draft_text: str) -> CheckResult | CheckRefused:
        """Check one draft; record it; never publish."""
        opened = self._opener.open(run_id)
        match opened:
            case UnknownRun():
                return CheckRefused(run_id, "UNKNOWN_RUN")
            case AlreadyReleased():
                return CheckRefused(run_id, "ALREADY_RELEASED")
            case StoreDown() | Unverified():
                return CheckRefused(run_id, _store_refusal(opened.code))
            case Opened():
                pass
        refused = self._may_check(opened.log)
        if refused is not None:
            return CheckRefused(run_id, refused)
        found = self._evaluate(opened, draft_text)
        if isinstance(found, CheckRefused):
            return found
        return self._record(run_id, draft_text, found)

    def _may_check(self, log: RunLog) -> CheckRefusal | None:
        run = log.run
        assert run is not None
        if run.state is not RunState.RUNNING:
            return "RUN_NOT_ACTIVE"
        if not run.context.is_complete:
            return "MISSING_REQUIRED_CONTEXT"
        if log.checks >= self._attempts:
            return "CHECK_LIMIT_REACHED"
        return None

    def _evaluate(self, opened: Opened, draft_text: str) -> _Found | CheckRefused:
        run_id = opened.log.run_id
        draft = parse_draft(draft_text)
        if isinstance(draft, MalformedDraft):
            issue = ValidationIssue(IssueCode.MALFORMED_DRAFT, reason=draft.reason)
            return _Found(FailureStage.DIAGNOSIS_COLLECTION, None, (issue,))
        verdict = self._guard.check(opened.log, draft, opened.records)
        if isinstance(verdict, GuardFailed) and verdict.store_down:
            return CheckRefused(run_id, "STORE_UNAVAILABLE")
        if opened.state.collected.stop_reason is StopReason.PROGRESS_PROTOCOL_VIOLATED:
            found = verdict.issues if isinstance(verdict, GuardFailed) else ()
            protocol = ValidationIssue(
                IssueCode.PROTOCOL_VIOLATED, reason=GuardReason.STOPPED_FOR_PROTOCOL
            )
            return _Found(FailureStage.DIAGNOSIS_COLLECTION, None, (protocol, *found))
        if isinstance(verdict, GuardFailed):
            return _Found(FailureStage.EVIDENCE_VALIDATION, None, verdict.issues)
        return self._judged(run_id, draft, verdict.snapshot)

    def _judged(
        self, run_id: str, draft: Draft, snapshot: VerifiedEvidenceSnapshot
    ) -> _Found | CheckRefused:
        steps = StepLog(self._recorder, run_id, keep=False)
        judged = self._semantic.judge(draft, snapshot, steps)
        match judged:
            case Judged():
                if judged.verdict is SemanticVerdict.SUPPORTED:
                    return _Found(None, judged.verdict)
                stage = FailureStage.SEMANTIC_VALIDATION
                return _Found(stage, judged.verdict, judged.issues)
            case RunLeft():
                return CheckRefused(run_id, "RUN_NOT_ACTIVE")
            case StoreDown():
                return CheckRefused(run_id, _store_refusal(judged.code))
            case _:
                return CheckRefused(run_id, "INTERNAL_FAILURE")

    def _record(self, run_id: str, draft_text: str, found: _Found) -> CheckResult | CheckRefused:
        draft = parse_draft(draft_text)
        analyses = 0 if isinstance(draft, MalformedDraft) else len(draft.analyses)
        citations = 0 if isinstance(draft, MalformedDraft) else len(draft.cited_ids)
        recorded: list[DraftChecked | CheckRefusal] = []

        def decide(current: RunLog) -> Decision:
            refusal: CheckRefusal | None = (
                "ALREADY_RELEASED" if current.released else self._may_check(current)
            )
            if refusal is not None:
                recorded.append(refusal)
                return Success(())
            event = DraftChecked(
                attempt=current.checks + 1,
                passed=found.stage is None,
                failure_stage=found.stage,
                verdict=found.verdict,
                analyses=analyses,
                citations=citations,
                issues=tuple(
                    CheckedIssue(i.code, i.tool_call_id, i.analysis_index, safe_code(i.reason))
                    for i in found.issues
                ),
            )
            recorded.append(event)
            return Success((event,))

        outcome = self._runs.execute(run_id, decide)
        if isinstance(outcome, StoreFailed):
            return CheckRefused(run_id, _store_refusal(failure_code_of(outcome)))
        last = recorded[-1] if recorded else "INTERNAL_FAILURE"
        if not isinstance(outcome, Committed) or not isinstance(last, DraftChecked):
            return CheckRefused(run_id, last if isinstance(last, str) else "INTERNAL_FAILURE")
        attempt = last.attempt
        return CheckResult(
            run_id=run_id,
            passed=found.stage is None,
            attempt=attempt,
            attempts_left=max(0, self._attempts - attempt),
            failure_stage=found.stage,
            semantic_verdict=found.verdict,
            validation_issues=found.issues,
        )


def _store_refusal(code: FailureCode) -> CheckRefusal:
    match code:
        case FailureCode.LOG_CORRUPTED:
            return "LOG_CORRUPTED"
        case FailureCode.STORE_DIVERGED:
            return "STORE_DIVERGED"
        case _:
            return "STORE_UNAVAILABLE"
