"""The single release point: the only place that publishes.

A release is a decision (``domain/release/decision.py``) over what its steps find, in order:
open the run (its log verified, abandoned calls closed, the deadline applied, the snapshot
read); then, for a RUNNING run with its context, the draft: none or malformed; the
EvidenceGuard and EvidenceRepair; the SemanticGuard. Each step answers with a value (a finding,
or an interruption: the store failed, the run stopped); the decision turns the finding into
the events that record it, and the result is returned only once they are in the store.
"""

from __future__ import annotations

import time

from factledger.application.contracts.draft import MalformedDraft, parse_draft
from factledger.application.release.commit import DecisionCommitter
from factledger.application.release.evidence_guard import GuardFailed
from factledger.application.release.opening import Opened, RunOpener, Unverified
from factledger.application.release.outcomes import (
    AlreadyReleased,
    Interruption,
    ReleaseOutcomeValue,
    RunLeft,
    StoreDown,
    UnknownRun,
)
from factledger.application.release.recorder import ReleaseRecorder, StepLog
from factledger.application.release.repair import Guarded, GuardedRepair
from factledger.application.release.semantic_guard import JudgeCrashed, Judged, SemanticGuard
from factledger.domain.release.decision import unrecorded
from factledger.domain.release.events import SemanticVerdict
from factledger.domain.release.fallback import PublishedResult, ReleaseResult
from factledger.domain.release.findings import (
    DraftMalformed,
    EvidenceRejected,
    InternalFailure,
    LogUnverified,
    NoDraft,
    ProtocolViolated,
    ReleaseFinding,
    SemanticRejected,
    SemanticSupported,
    SemanticUnavailable,
    Terminated,
)
from factledger.domain.status import FailureCode, RunState, StopReason
from factledger.ports.draft_repair import DraftRepairer
from factledger.ports.telemetry import SILENT, CallLog, ReleaseLogged

__all__ = ["ReleaseService"]


class ReleaseService:
    """Releases runs (see the module doc)."""

    def __init__(
        self,
        opener: RunOpener,
        guarded: GuardedRepair,
        semantic: SemanticGuard,
        committer: DecisionCommitter,
        recorder: ReleaseRecorder,
        repairer: DraftRepairer,
        *,
        call_log: CallLog = SILENT,
    ) -> None:
        self._opener = opener
        self._guarded = guarded
        self._semantic = semantic
        self._committer = committer
        self._recorder = recorder
        self._repairer = repairer
        self._log = call_log

    @property
    def repairer(self) -> DraftRepairer:
        """The repairer used when a release names none."""
        return self._repairer

    def release(
        self, run_id: str, draft_text: str | None, *, repairer: DraftRepairer | None = None
    ) -> ReleaseOutcomeValue:
        """Release a run with the agent's draft (``None``: it stopped without one); the
        decision ends with one log record (ids and codes, never the draft)."""
        started = time.perf_counter()
        try:
            outcome = self._release(run_id, draft_text, repairer or self._repairer)
        except Exception:  # a defect must still end the run, closed
            outcome = self._internal_failure(run_id)
        self._log.release_decided(_logged(run_id, outcome, time.perf_counter() - started))
        return outcome

    def _release(
        self, run_id: str, draft_text: str | None, repairer: DraftRepairer
    ) -> ReleaseOutcomeValue:
        opened = self._opener.open(run_id)
        match opened:
            case UnknownRun() | AlreadyReleased():
                return opened
            case StoreDown():
                return unrecorded(run_id, opened.code)
            case Unverified():
                return self._committer.commit(opened.state, LogUnverified(opened.code))
            case Opened():
                steps = StepLog(self._recorder, run_id)
                found = self._find(opened, draft_text, repairer, steps)
        match found:
            case StoreDown():
                return unrecorded(run_id, found.code)
            case RunLeft():
                found = Terminated()
            case _:
                pass
        return self._committer.commit(
            opened.state, found, steps.take(), lambda: self._opener.collected(opened)
        )

    def _find(
        self, opened: Opened, draft_text: str | None, repairer: DraftRepairer, steps: StepLog
    ) -> ReleaseFinding | Interruption:
        """What the draft comes to (the decision weighs it against the run's state)."""
        state = opened.state
        if state.run_state is not RunState.RUNNING:
            return Terminated()
        if not state.context_complete or draft_text is None:
            return NoDraft()
        draft = parse_draft(draft_text)
        if isinstance(draft, MalformedDraft):
            return DraftMalformed(draft.reason)
        protocol = state.collected.stop_reason is StopReason.PROGRESS_PROTOCOL_VIOLATED
        guarded = self._guarded.run(
            opened.log, draft, repairer, steps, records=opened.records, repair=not protocol
        )
        if not isinstance(guarded, Guarded):
            return guarded
        verdict = guarded.verdict
        if protocol:
            return ProtocolViolated(verdict.issues if isinstance(verdict, GuardFailed) else ())
        if isinstance(verdict, GuardFailed):
            return EvidenceRejected(verdict.issues, guarded.repair_outage)
        judged = self._semantic.judge(guarded.draft, verdict.snapshot, steps)
        if not isinstance(judged, Judged):
            return InternalFailure() if isinstance(judged, JudgeCrashed) else judged
        match judged.verdict:
            case SemanticVerdict.SUPPORTED:
                draft = guarded.draft
                published = PublishedResult(
                    draft.conclusion, draft.analyses, verdict.snapshot.sources
                )
                return SemanticSupported(published)
            case SemanticVerdict.UNSUPPORTED:
                return SemanticRejected(judged.issues)
            case SemanticVerdict.UNAVAILABLE:
                return SemanticUnavailable(judged.outage)

    def _internal_failure(self, run_id: str) -> ReleaseOutcomeValue:
        """End the run FAILED, INTERNAL_FAILURE, when the store lets it be recorded."""
        try:
            opened = self._opener.open(run_id)
            match opened:
                case UnknownRun() | AlreadyReleased():
                    return opened
                case Opened():
                    return self._committer.commit(
                        opened.state, InternalFailure(), (), lambda: self._opener.collected(opened)
                    )
                case Unverified():
                    return self._committer.commit(opened.state, InternalFailure())
                case StoreDown():
                    return unrecorded(run_id, FailureCode.INTERNAL_FAILURE)
        except Exception:  # the store itself is failing: report, closed
            return unrecorded(run_id, FailureCode.INTERNAL_FAILURE)


def _logged(run_id: str, outcome: ReleaseOutcomeValue, seconds: float) -> ReleaseLogged:
    if not isinstance(outcome, ReleaseResult):
        if isinstance(outcome, AlreadyReleased):
            return ReleaseLogged(run_id, None, None, None, None, "ALREADY_RELEASED", seconds * 1000)
        return ReleaseLogged(run_id, None, None, None, None, "UNKNOWN_RUN", seconds * 1000)
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
