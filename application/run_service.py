"""Use cases on a run as a whole: start it, cancel it, end it, record model usage."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeAlias

from attrs import evolve, frozen

from factledger.application.run_limits import end_for_refusal, end_if_past_deadline
from factledger.application.run_repository import (
    Committed,
    ExecuteOutcome,
    Refused,
    RunRepository,
    StoreFailed,
)
from factledger.domain.budget import RunBudget
from factledger.domain.model_failure import ModelFailureReason, model_failure_reason
from factledger.domain.progress.policy import ProgressPolicy
from factledger.domain.run_commands import (
    EndRun,
    RecordModelUsage,
    ReserveModelCall,
    StartRun,
)
from factledger.domain.run_decisions import (
    decide_end_run,
    decide_record_model_failure,
    decide_record_model_usage,
    decide_reserve_model_call,
    decide_start_run,
)
from factledger.domain.run_errors import RunError
from factledger.domain.run_events import (
    DiagnosisContext,
    ModelCallFailed,
    ModelCallPurpose,
    ToolGrant,
)
from factledger.domain.status import FailureCode, RunState
from factledger.ports.clock import Clock, IdFactory

__all__ = ["LimitReached", "Metered", "MeterOutcome", "RunService", "StartedRun"]


@frozen
class StartedRun:
    """A run that has started."""

    run_id: str
    """Its id."""


@frozen
class Metered:
    """The model call is reserved: make it."""


@frozen
class LimitReached:
    """The run may not make the call; a spent budget or a passed deadline ended it."""

    error: RunError
    """Why the reservation was refused."""


MeterOutcome: TypeAlias = Metered | LimitReached | StoreFailed
"""What reserving a metered model call gave."""


class RunService:
    """Starts, ends and meters runs through the repository."""

    def __init__(self, runs: RunRepository, clock: Clock, ids: IdFactory) -> None:
        self._runs = runs
        self._clock = clock
        self._ids = ids

    def start(
        self,
        *,
        budget: RunBudget,
        tools: Sequence[ToolGrant],
        context: DiagnosisContext | None = None,
        question: str | None = None,
        run_id: str | None = None,
        progress: ProgressPolicy | None = None,
        owner: str | None = None,
    ) -> StartedRun | Refused | StoreFailed:
        """Start a run. The question's text stays out of the event: only its digest and size;
        ``owner`` is the digest of the principal that starts it (``run_access.owner_digest``)."""
        new_id = run_id or self._ids.new_run_id()
        context = evolve(context or DiagnosisContext(), owner=owner)
        if question is not None:
            encoded = question.encode("utf-8")
            context = evolve(
                context,
                question_digest=hashlib.sha256(encoded).hexdigest(),
                question_bytes=len(encoded),
            )
        command = StartRun(
            run_id=new_id,
            budget=budget,
            tools=tuple(tools),
            context=context,
            now=self._clock.now(),
            progress=progress or ProgressPolicy(),
        )
        outcome = self._runs.execute(new_id, lambda log: decide_start_run(log, command))
        if isinstance(outcome, Committed):
            return StartedRun(new_id)
        return outcome

    def cancel(self, run_id: str) -> ExecuteOutcome:
        """Cancel a running run; every worker sees it through the log."""
        return self.end(run_id, RunState.CANCELLED, FailureCode.RUN_CANCELLED)

    def end(self, run_id: str, state: RunState, failure_code: FailureCode | None) -> ExecuteOutcome:
        """Move a run out of RUNNING once; a second completion is refused."""
        command = EndRun(state, failure_code)
        return self._runs.execute(run_id, lambda log: decide_end_run(log, command))

    def reserve_model_call(
        self, run_id: str, purpose: ModelCallPurpose, step: int | None = None
    ) -> ExecuteOutcome:
        """Reserve one metered model call."""
        command = ReserveModelCall(purpose, step, self._clock.now())
        return self._runs.execute(run_id, lambda log: decide_reserve_model_call(log, command))

    def meter(
        self, run_id: str, purpose: ModelCallPurpose, step: int | None = None
    ) -> MeterOutcome:
        """Reserve one model call; a refusal for a limit ends the run (``run_limits``)."""
        outcome = self.reserve_model_call(run_id, purpose, step)
        match outcome:
            case Committed():
                return Metered()
            case Refused():
                end_for_refusal(self._runs, run_id, outcome.error)
                return LimitReached(outcome.error)
            case StoreFailed():
                return outcome

    def record_model_failure(
        self, run_id: str, purpose: ModelCallPurpose, code: str, step: int | None = None
    ) -> ModelFailureReason:
        """Record MODEL_CALL_FAILED for a call that gave no usable answer (best effort: a
        store that fails loses only this note); the reason the client's code stands for."""
        reason = model_failure_reason(code)
        failed = ModelCallFailed(purpose, step, reason)
        self._runs.execute(run_id, lambda log: decide_record_model_failure(log, failed))
        return reason

    def end_if_overdue(self, run_id: str) -> StoreFailed | bool:
        """End a running run as TIMED_OUT once its deadline has passed; True when it had."""
        log = self._runs.load(run_id)
        if isinstance(log, StoreFailed):
            return log
        return end_if_past_deadline(self._runs, log, self._clock.now())

    def record_model_usage(
        self, run_id: str, purpose: ModelCallPurpose, prompt_tokens: int, completion_tokens: int
    ) -> ExecuteOutcome:
        """Record the tokens a model call used."""
        command = RecordModelUsage(purpose, prompt_tokens, completion_tokens)
        return self._runs.execute(run_id, lambda log: decide_record_model_usage(log, command))
