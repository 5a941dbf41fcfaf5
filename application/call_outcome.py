"""What the progress tracker learns of a finished call, and whether its outcome stopped
collection (the observation then says so)."""

from __future__ import annotations

from factledger.application.tool_api.spec import ToolSpec
from factledger.application.tool_call import FinishedInBoundary
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.progress.decisions import FinishedCall, Proposal
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus, StopReason

__all__ = ["finished_call", "stop_caused_by"]


def stop_caused_by(log: RunLog, tool_call_id: str) -> StopReason | None:
    """The stop reason when this call's outcome (or refusal) stopped collection."""
    progress = log.progress
    if progress.stop_reason is None or progress.stopped_by != tool_call_id:
        return None
    return progress.stop_reason


def finished_call(spec: ToolSpec, proposal: Proposal, finished: FinishedInBoundary) -> FinishedCall:
    """The call as the progress tracker needs it, with the dual-source check done: the
    evidence status the projector declared against the one its content implies."""
    if finished.result is None:
        return FinishedCall(
            tool_call_id=finished.tool_call_id,
            tool_name=spec.name,
            scope_identity=proposal.scope_identity,
            evidence_status=EvidenceStatus.ERROR,
            budget_exhausted=finished.error_code is ToolBoundaryErrorCode.BUDGET_EXHAUSTED,
        )
    declared = finished.result.evidence_status
    recomputed = spec.evidence_status(finished.result.agent_result)
    return FinishedCall(
        tool_call_id=finished.tool_call_id,
        tool_name=spec.name,
        scope_identity=proposal.scope_identity,
        evidence_status=declared,
        contract_holds=recomputed is declared,
    )
