"""The EvidenceGuard with EvidenceRepair: check the citations, and while they fail, ask the
repairer (bounded attempts, each metered when it is a model) for a draft whose citations only
changed; a draft whose conclusion, claims or kinds changed is rejected. Every step is an
event (EVIDENCE_GUARD_INITIAL, EVIDENCE_REPAIR_ATTEMPT, EVIDENCE_GUARD_RECHECK), kept in the
release's ``StepLog`` and recorded before the next model call or with the decision."""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

from factledger.application.canonical_view import CanonicalInvocation, CanonicalViewReader
from factledger.application.contracts.draft import MalformedDraft, parse_draft
from factledger.application.release.evidence_guard import (
    EvidenceGuard,
    GuardFailed,
    GuardPassed,
    GuardVerdict,
)
from factledger.application.release.outcomes import Interruption, StoreDown
from factledger.application.release.recorder import StepLog
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.application.store_failures import failure_code_of
from factledger.domain.invocation import Ready
from factledger.domain.json_types import JsonObject, object_or_empty
from factledger.domain.model_failure import ModelFailureReason
from factledger.domain.release.draft import Draft
from factledger.domain.release.events import (
    EvidenceGuardInitialChecked,
    EvidenceGuardRechecked,
    EvidenceRepairAttempted,
    RecordedIssue,
    RepairOutcome,
)
from factledger.domain.run_events import ModelCallPurpose
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus, FailureCode
from factledger.ports.draft_repair import (
    CitableCall,
    DraftRepairer,
    RepairRequest,
    RepairUnavailable,
)

__all__ = ["Guarded", "GuardedRepair"]


@frozen
class Guarded:
    """The guard's last verdict, on the last draft it checked."""

    draft: Draft
    """The draft as received, or as repaired."""
    verdict: GuardVerdict
    """What the guard said of it."""
    repair_outage: ModelFailureReason | None = None
    """Why the repair model could not be reached, when it could not."""


class GuardedRepair:
    """Runs the guard and, while it fails, the repair (see the module doc)."""

    def __init__(
        self,
        runs: RunRepository,
        guard: EvidenceGuard,
        canonical: CanonicalViewReader,
        attempts: int,
    ) -> None:
        self._runs = runs
        self._guard = guard
        self._canonical = canonical
        self._attempts = attempts

    def run(
        self,
        log: RunLog,
        draft: Draft,
        repairer: DraftRepairer,
        steps: StepLog,
        *,
        records: Mapping[str, CanonicalInvocation | None] | None = None,
        repair: bool = True,
    ) -> Guarded | Interruption:
        """Guard (on ``records`` when the caller has read every call of ``log``), then repair
        while it fails (not when ``repair`` is false)."""
        verdict = self._guard.check(log, draft, records)
        steps.add(
            EvidenceGuardInitialChecked(
                _passed(verdict), len(draft.analyses), len(draft.cited_ids), _recorded(verdict)
            )
        )
        guarded = Guarded(draft, verdict)
        for attempt in range(1, self._attempts + 1 if repair else 1):
            if not isinstance(guarded.verdict, GuardFailed) or guarded.verdict.store_down:
                break
            step = self._attempt(log, guarded, repairer, steps, attempt)
            if not isinstance(step, Guarded):
                return step
            guarded = step
        if isinstance(guarded.verdict, GuardFailed) and guarded.verdict.store_down:
            return StoreDown(FailureCode.STORE_UNAVAILABLE)
        return guarded

    def _attempt(
        self,
        log: RunLog,
        current: Guarded,
        repairer: DraftRepairer,
        steps: StepLog,
        attempt: int,
    ) -> Guarded | Interruption:
        stopped = steps.meter(ModelCallPurpose.EVIDENCE_REPAIR, repairer.uses_model)
        if stopped is not None:
            return stopped
        assert isinstance(current.verdict, GuardFailed)
        request = RepairRequest(
            draft=_draft_json(current.draft),
            issues=current.verdict.issues,
            citable=self._citable(log),
            attempt=attempt,
        )
        answer = _ask(repairer, request)
        outage = current.repair_outage
        if not isinstance(answer, str) and repairer.uses_model:
            outage = steps.model_failed(ModelCallPurpose.EVIDENCE_REPAIR, answer.reason)
        repaired, outcome = _repaired(current.draft, answer)
        steps.add(EvidenceRepairAttempted(attempt, outcome))
        if repaired is None:
            return Guarded(current.draft, current.verdict, outage)
        fresh = self._runs.load(log.run_id)
        if isinstance(fresh, StoreFailed):
            return StoreDown(failure_code_of(fresh))
        verdict = self._guard.check(fresh, repaired)
        steps.add(
            EvidenceGuardRechecked(
                attempt,
                _passed(verdict),
                len(repaired.analyses),
                len(repaired.cited_ids),
                _recorded(verdict),
            )
        )
        return Guarded(repaired, verdict, outage)

    def _citable(self, log: RunLog) -> tuple[CitableCall, ...]:
        """Every READY call of the run with the scope its observation showed."""
        ready = [i for i in log.invocations.values() if isinstance(i, Ready)]
        records = self._canonical.read_from_log(log, [i.info.tool_call_id for i in ready])
        if isinstance(records, StoreFailed):
            return ()
        citable: list[CitableCall] = []
        for invocation in ready:
            record = records.get(invocation.info.tool_call_id)
            scope: JsonObject = {}
            if record is not None and record.agent_result is not None:
                scope = object_or_empty(record.agent_result.get("scope"))
            citable.append(
                CitableCall(
                    invocation.info.tool_call_id,
                    invocation.info.tool_name,
                    scope,
                    EvidenceStatus(invocation.evidence_status),
                )
            )
        return tuple(citable)


def _ask(repairer: DraftRepairer, request: RepairRequest) -> str | RepairUnavailable:
    try:
        return repairer.repair(request)
    except Exception:  # a repairer is foreign code: a crash is no repair, never its text
        return RepairUnavailable("REPAIRER_FAILED")


def _repaired(draft: Draft, answer: object) -> tuple[Draft | None, RepairOutcome]:
    if not isinstance(answer, str):
        return None, RepairOutcome.UNAVAILABLE
    repaired = parse_draft(answer)
    if isinstance(repaired, MalformedDraft):
        return None, RepairOutcome.MALFORMED
    if not draft.same_semantics(repaired):
        return None, RepairOutcome.SEMANTICS_CHANGED
    return repaired, RepairOutcome.REPAIRED


def _passed(verdict: GuardVerdict) -> bool:
    return isinstance(verdict, GuardPassed)


def _recorded(verdict: GuardVerdict) -> tuple[RecordedIssue, ...]:
    if isinstance(verdict, GuardPassed):
        return ()
    return tuple(RecordedIssue(i.code, i.tool_call_id, i.analysis_index) for i in verdict.issues)


def _draft_json(draft: Draft) -> JsonObject:
    return {
        "conclusion": draft.conclusion,
        "analyses": [analysis.to_json() for analysis in draft.analyses],
    }
