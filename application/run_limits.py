"""The one rule for a run that hits a limit: a reservation refused because a budget is spent
ends the run as BUDGET_EXHAUSTED, one refused because the deadline passed ends it as
TIMED_OUT (every caller — the boundary, the agent loop, the release and the check — asks here).

A tool call refused for its budget is the exception the progress protocol makes: collection
stops with BUDGET_LIMIT_REACHED and the run goes on to its release (``budget_ends_run=False``).
"""

from __future__ import annotations

from datetime import datetime

from factledger.application.run_repository import RunRepository
from factledger.domain.run_commands import EndRun
from factledger.domain.run_decisions import decide_end_run
from factledger.domain.run_errors import BudgetExhausted, DeadlinePassed, RunError
from factledger.domain.run_log import RunLog
from factledger.domain.status import FailureCode, RunState

__all__ = ["TIME_OUT", "end_for_refusal", "end_if_past_deadline", "limit_end"]

TIME_OUT = EndRun(RunState.TIMED_OUT, FailureCode.RUN_TIMED_OUT)
"""How a run past its deadline ends."""

_EXHAUSTED = EndRun(RunState.BUDGET_EXHAUSTED, FailureCode.BUDGET_EXHAUSTED)


def limit_end(error: RunError, *, budget_ends_run: bool = True) -> EndRun | None:
    """How a refusal ends the run, or ``None`` when it is not a limit that ends it."""
    if isinstance(error, DeadlinePassed):
        return TIME_OUT
    if isinstance(error, BudgetExhausted) and budget_ends_run:
        return _EXHAUSTED
    return None


def end_for_refusal(
    runs: RunRepository, run_id: str, error: RunError, *, budget_ends_run: bool = True
) -> bool:
    """End the run as the refusal says (best effort: the next command ends it otherwise);
    True when the refusal was a limit that ends the run."""
    command = limit_end(error, budget_ends_run=budget_ends_run)
    if command is None:
        return False
    runs.execute(run_id, lambda log: decide_end_run(log, command))
    return True


def end_if_past_deadline(runs: RunRepository, log: RunLog, now: datetime) -> bool:
    """End a RUNNING run whose deadline has passed as TIMED_OUT; True when it had passed."""
    run = log.run
    if run is None or run.state is not RunState.RUNNING or not run.is_past_deadline(now):
        return False
    runs.execute(log.run_id, lambda current: decide_end_run(current, TIME_OUT))
    return True
