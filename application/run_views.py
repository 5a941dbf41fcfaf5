"""Typed views of a run as a whole: its summary, what a cancel did, its metered model usage,
and the steps its release recorded. Each is built from the run's folded log (metadata only)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Literal, TypeAlias

from attrs import frozen

from factledger.domain.budget import BudgetName
from factledger.domain.events import RecordedEvent
from factledger.domain.json_shape import JsonRecord
from factledger.domain.release.events import (
    RELEASE_STEP_EVENTS,
    EvidenceGuardInitialChecked,
    EvidenceGuardRechecked,
    EvidenceRepairAttempted,
    ReleaseDecided,
    ReleaseStepType,
    RepairOutcome,
    SemanticAttempted,
    SemanticDecided,
    SemanticVerdict,
)
from factledger.domain.run_log import RunLog
from factledger.domain.status import FailureCode, ReleaseOutcome, RunState, StopReason

__all__ = [
    "CancelResult",
    "ModelUsage",
    "ReleaseStep",
    "RunSummary",
    "StepVerdict",
    "release_steps",
]


@frozen
class RunSummary(JsonRecord):
    """A run's state, context, budget use and release decision (metadata only)."""

    run_id: str
    """The run."""
    state: RunState
    """Its RunState."""
    started_at: datetime
    """When it started."""
    deadline: datetime
    """When it times out."""
    service: str | None
    """The service under diagnosis."""
    start: datetime | None
    """Start of the window under diagnosis."""
    end: datetime | None
    """End of the window under diagnosis."""
    tool_calls: int
    """Tool calls reserved so far."""
    model_calls: int
    """Model calls reserved so far."""
    model_tokens: int
    """Model tokens recorded so far."""
    events: int
    """Events in the run's log."""
    stop_reason: StopReason | None
    """Why evidence collection was stopped, if it was."""
    outcome: ReleaseOutcome | None
    """The release outcome, once released."""
    owner: str | None = None
    """The digest of the principal that started the run (never a token); None: no owner."""

    @classmethod
    def from_log(cls, log: RunLog) -> RunSummary:
        """The summary of a started run."""
        run = log.started_run()
        return cls(
            run_id=log.run_id,
            state=run.state,
            started_at=run.started_at,
            deadline=run.deadline,
            service=run.context.service,
            start=run.context.start,
            end=run.context.end,
            tool_calls=run.usage.tool_calls,
            model_calls=run.usage.model_calls,
            model_tokens=run.usage.model_tokens,
            events=log.sequence,
            stop_reason=log.progress.stop_reason,
            outcome=None if log.released is None else log.released.outcome,
            owner=run.context.owner,
        )


@frozen
class CancelResult(JsonRecord):
    """What a cancel did."""

    run_id: str
    """The run."""
    state: RunState
    """Its state after the cancel."""
    cancelled: bool
    """True when this request cancelled it (false when it had already ended)."""


@frozen
class ModelUsage(JsonRecord):
    """A run's metered model use after some usage was recorded against its budgets."""

    run_id: str
    """The run."""
    state: RunState
    """Its state afterwards: no longer RUNNING when a reported call was over the budget or
    past the deadline (the run then ended exactly as the built-in agent loop's would)."""
    accepted_calls: int
    """How many of the reported calls were within the budget."""
    refused_by: FailureCode | None
    """BUDGET_EXHAUSTED or RUN_TIMED_OUT when a reported call was refused."""
    model_calls: int
    """Model calls metered in the run so far."""
    model_tokens: int
    """Model tokens recorded in the run so far (billed tokens are kept even past the budget)."""
    remaining_model_calls: int
    """Model calls the budget still allows."""
    remaining_model_tokens: int
    """Model tokens the budget still allows."""

    @property
    def stopped(self) -> bool:
        """True when the run no longer runs: the agent must stop and release."""
        return self.state is not RunState.RUNNING

    @classmethod
    def from_log(cls, log: RunLog, accepted: int, refused_by: FailureCode | None) -> ModelUsage:
        """The usage of a started run as its log says."""
        run = log.started_run()
        return cls(
            run_id=log.run_id,
            state=run.state,
            accepted_calls=accepted,
            refused_by=refused_by,
            model_calls=run.usage.model_calls,
            model_tokens=run.usage.model_tokens,
            remaining_model_calls=run.remaining(BudgetName.MODEL_CALLS),
            remaining_model_tokens=run.remaining(BudgetName.MODEL_TOKENS),
        )


StepVerdict: TypeAlias = Literal["pass", "fail"] | RepairOutcome | SemanticVerdict | ReleaseOutcome
"""A release step's verdict: a guard check passed or failed, what a repair produced, the
judge's verdict, or the release outcome."""


@frozen
class ReleaseStep(JsonRecord):
    """One step the release recorded, with its verdict."""

    step: ReleaseStepType
    """``EVIDENCE_GUARD_INITIAL``, ``EVIDENCE_REPAIR_ATTEMPT``, ``EVIDENCE_GUARD_RECHECK``,
    ``SEMANTIC_ATTEMPT``, ``SEMANTIC_DECISION`` or ``RELEASE_DECISION``."""
    verdict: StepVerdict
    """``pass`` or ``fail`` for a guard check, the judge's verdict, the repair's outcome or the
    release outcome."""
    sequence: int
    """The event that recorded it."""


def release_steps(events: Iterable[RecordedEvent]) -> tuple[ReleaseStep, ...]:
    """The release's recorded steps, in order."""
    steps: list[ReleaseStep] = []
    for recorded in events:
        event = recorded.event
        if not isinstance(event, RELEASE_STEP_EVENTS):
            continue
        match event:
            case EvidenceGuardInitialChecked() | EvidenceGuardRechecked():
                verdict: StepVerdict = "pass" if event.passed else "fail"
            case EvidenceRepairAttempted():
                verdict = event.outcome
            case SemanticAttempted() | SemanticDecided():
                verdict = event.verdict
            case ReleaseDecided():
                verdict = event.outcome
        steps.append(ReleaseStep(event.TYPE, verdict, recorded.sequence))
    return tuple(steps)
