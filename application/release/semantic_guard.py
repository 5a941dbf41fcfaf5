"""The SemanticGuard: does the verified evidence support the draft?

The judge is asked up to ``judge_attempts`` times while it is unavailable; each attempt of a
judge that is a model is a metered model call, and a model that gives no usable answer is
recorded as MODEL_CALL_FAILED with its reason. In a release every attempt is an event
(SEMANTIC_ATTEMPT, then one SEMANTIC_DECISION, kept in its ``StepLog``); a check keeps no step
and records only its own DRAFT_CHECK.
Each finding of an unsupported verdict becomes an UNGROUNDED_CLAIM issue with the judge's
reason and, when it is words of the claim, the token (a token the claim does not contain is
dropped: an issue never quotes evidence).
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from factledger.application.release.evidence_guard import VerifiedEvidenceSnapshot
from factledger.application.release.outcomes import Interruption
from factledger.application.release.recorder import ReleaseRecorder, StepLog
from factledger.domain.model_failure import ModelFailureReason
from factledger.domain.release.draft import Draft
from factledger.domain.release.events import SemanticAttempted, SemanticDecided, SemanticVerdict
from factledger.domain.release.issues import IssueCode, ValidationIssue
from factledger.domain.run_events import ModelCallPurpose
from factledger.domain.safe_code import safe_code
from factledger.ports.clock import Clock
from factledger.ports.semantic_judge import (
    JudgeAnswer,
    JudgeFinding,
    JudgeRequest,
    JudgeSupported,
    JudgeUnavailable,
    JudgeUnsupported,
    SemanticJudge,
)

__all__ = ["JudgeCrashed", "Judged", "SemanticGuard", "issues_from_findings"]

_MAX_TOKEN_CHARS: Final = 200


@frozen
class Judged:
    """The judge's final verdict."""

    verdict: SemanticVerdict
    """SUPPORTED, UNSUPPORTED or UNAVAILABLE."""
    issues: tuple[ValidationIssue, ...]
    """For UNSUPPORTED: one issue per finding."""
    attempts: int
    """How many attempts it took."""
    outage: ModelFailureReason | None = None
    """For UNAVAILABLE from a model judge: why its model gave no answer."""


@frozen
class JudgeCrashed:
    """The judge raised instead of answering (its text is never kept)."""


class SemanticGuard:
    """Asks the judge (see the module doc)."""

    def __init__(
        self,
        judge: SemanticJudge,
        recorder: ReleaseRecorder,
        clock: Clock,
        *,
        attempts: int,
        timeout_seconds: float,
    ) -> None:
        self._judge = judge
        self._recorder = recorder
        self._clock = clock
        self._attempts = attempts
        self._timeout = timeout_seconds

    def judge(
        self,
        draft: Draft,
        evidence: VerifiedEvidenceSnapshot,
        steps: StepLog,
    ) -> Judged | JudgeCrashed | Interruption:
        """Ask until a verdict or the last attempt; the attempts go to ``steps``."""
        request = JudgeRequest(draft.conclusion, evidence.claims)
        judged = Judged(SemanticVerdict.UNAVAILABLE, (), 0)
        for attempt in range(1, self._attempts + 1):
            answer = self._attempt(steps, request, attempt)
            if not isinstance(answer, JudgeSupported | JudgeUnsupported | JudgeUnavailable):
                return answer
            judged = self._judged(steps, draft, answer, attempt, judged.outage)
            reason = None if isinstance(answer, JudgeSupported) else answer.reason
            steps.add(
                SemanticAttempted(attempt, self._judge.name, judged.verdict, safe_code(reason))
            )
            if judged.verdict is not SemanticVerdict.UNAVAILABLE:
                break
        unsupported = _unsupported_indexes(judged.issues)
        steps.add(SemanticDecided(judged.verdict, judged.attempts, unsupported))
        return judged

    def _attempt(
        self, steps: StepLog, request: JudgeRequest, attempt: int
    ) -> JudgeAnswer | JudgeCrashed | Interruption:
        stopped = None
        if attempt > 1:  # the run was opened, running, just before the first
            stopped = self._recorder.ensure_running(steps.run_id, self._clock.now())
        if stopped is None:
            stopped = steps.meter(ModelCallPurpose.SEMANTIC_JUDGE, self._judge.uses_model)
        if stopped is not None:
            return stopped
        try:
            answer = self._judge.judge(request, self._timeout)
        except Exception:  # a judge is foreign code: a crash is an internal failure, closed
            return JudgeCrashed()
        self._recorder.used(steps.run_id, ModelCallPurpose.SEMANTIC_JUDGE, answer.usage)
        return answer

    def _judged(
        self,
        steps: StepLog,
        draft: Draft,
        answer: JudgeSupported | JudgeUnsupported | JudgeUnavailable,
        attempt: int,
        outage: ModelFailureReason | None,
    ) -> Judged:
        match answer:
            case JudgeSupported():
                return Judged(SemanticVerdict.SUPPORTED, (), attempt)
            case JudgeUnsupported():
                issues = issues_from_findings(answer.findings, draft)
                return Judged(SemanticVerdict.UNSUPPORTED, issues, attempt)
            case JudgeUnavailable():
                if self._judge.uses_model:
                    purpose = ModelCallPurpose.SEMANTIC_JUDGE
                    outage = steps.model_failed(purpose, answer.reason)
                return Judged(SemanticVerdict.UNAVAILABLE, (), attempt, outage)


def issues_from_findings(
    findings: tuple[JudgeFinding, ...], draft: Draft
) -> tuple[ValidationIssue, ...]:
    """One UNGROUNDED_CLAIM per finding: its analysis (null for the conclusion), its only
    citation when it has one, the reason code and the token when the claim holds it."""
    issues: list[ValidationIssue] = []
    for finding in findings or (JudgeFinding(-1, "UNSUPPORTED"),):
        index = finding.analysis_index
        analysis = draft.analyses[index] if 0 <= index < len(draft.analyses) else None
        text = draft.conclusion if analysis is None else analysis.claim
        cited = () if analysis is None else tuple(dict.fromkeys(analysis.tool_call_ids))
        issues.append(
            ValidationIssue(
                IssueCode.UNGROUNDED_CLAIM,
                cited[0] if len(cited) == 1 else None,
                None if analysis is None else index,
                safe_code(finding.reason),
                _quoted(finding.token, text),
            )
        )
    return tuple(issues)


def _quoted(token: str | None, text: str) -> str | None:
    """The token when it is words of ``text`` (case and spacing aside), else nothing."""
    if token is None or not token.strip() or len(token) > _MAX_TOKEN_CHARS:
        return None
    wanted = " ".join(token.split()).casefold()
    return token if wanted in " ".join(text.split()).casefold() else None


def _unsupported_indexes(issues: tuple[ValidationIssue, ...]) -> tuple[int, ...]:
    """The analyses the judge did not find supported, once each (-1: the conclusion)."""
    indexes = (-1 if issue.analysis_index is None else issue.analysis_index for issue in issues)
    return tuple(dict.fromkeys(indexes))
