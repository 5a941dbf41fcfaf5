"""Use cases on a run as a whole: start it, cancel it, end it, record model usage."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from attrs import evolve, frozen

from factledger.application.run_repository import (
    Committed,
    ExecuteOutcome,
    Refused,
    RunRepository,
    StoreFailed,
)
from factledger.domain.budget import RunBudget
from factledger.domain.progress.policy import ProgressPolicy
from factledger.domain.run_commands import (
    EndRun,
    RecordModelUsage,
    ReserveModelCall,
    StartRun,
)
from factledger.domain.run_decisions import (
    decide_end_run,
    decide_record_model_usage,
    decide_reserve_model_call,
    decide_start_run,
)
from factledger.domain.run_errors import BudgetExhausted, DeadlinePassed, RunError
from factledger.domain.run_events import DiagnosisContext, ModelCallPurpose, ToolGrant
from factledger.domain.status import FailureCode, RunState
from factledger.ports.clock import Clock, IdFactory

__all__ = ["RunService", "StartedRun", "refusal_code"]


@frozen
class StartedRun:
    """A run that has started."""

    run_id: str
    """Its id."""


def refusal_code(error: RunError) -> FailureCode | None:
    """How a refused reservation ends a run: an exhausted budget as BUDGET_EXHAUSTED, a passed
    deadline as RUN_TIMED_OUT; any other refusal does not end it."""
    if isinstance(error, BudgetExhausted):
        return FailureCode.BUDGET_EXHAUSTED
    if isinstance(error, DeadlinePassed):
        return FailureCode.RUN_TIMED_OUT
    return None


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
    ) -> StartedRun | Refused | StoreFailed:
        """Start a run. The question's text stays out of the event: only its digest and size."""
        new_id = run_id or self._ids.new_run_id()
        context = context or DiagnosisContext()
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

    def meter_model_call(
        self, run_id: str, purpose: ModelCallPurpose, step: int | None = None
    ) -> ExecuteOutcome:
        """Reserve one metered model call; when the budget or the deadline refuses it, the run
        ends as BUDGET_EXHAUSTED or TIMED_OUT (the one home of that rule for model calls)."""
        outcome = self.reserve_model_call(run_id, purpose, step)
        if isinstance(outcome, Refused):
            self.end_refused(run_id, outcome.error)
        return outcome

    def end_refused(self, run_id: str, error: RunError) -> FailureCode | None:
        """End a run whose budget or deadline refused a reservation; the code it ended with
        (None when the refusal was of another kind and the run goes on as it is)."""
        code = refusal_code(error)
        if code is FailureCode.BUDGET_EXHAUSTED:
            self.end(run_id, RunState.BUDGET_EXHAUSTED, code)
        elif code is FailureCode.RUN_TIMED_OUT:
            self.end(run_id, RunState.TIMED_OUT, code)
        return code

    def end_if_overdue(self, run_id: str) -> ExecuteOutcome | None:
        """End a running run as TIMED_OUT once its deadline has passed (None: nothing to do)."""
        log = self._runs.load(run_id)
        if isinstance(log, StoreFailed):
            return log
        run = log.run
        if run is None or run.state is not RunState.RUNNING:
            return None
        if not run.is_past_deadline(self._clock.now()):
            return None
        return self.end(run_id, RunState.TIMED_OUT, FailureCode.RUN_TIMED_OUT)

    def record_model_usage(
        self, run_id: str, purpose: ModelCallPurpose, prompt_tokens: int, completion_tokens: int
    ) -> ExecuteOutcome:
        """Record the tokens a model call used."""
        command = RecordModelUsage(purpose, prompt_tokens, completion_tokens)
        return self._runs.execute(run_id, lambda log: decide_record_model_usage(log, command))
