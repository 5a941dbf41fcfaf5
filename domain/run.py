"""The Run aggregate's state: lifecycle, budget usage, granted tools and context."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from attrs import frozen

from factledger.domain.budget import BudgetName, BudgetUsage, RunBudget
from factledger.domain.run_events import DiagnosisContext
from factledger.domain.status import FailureCode, RunState

__all__ = ["Run"]


@frozen
class Run:
    """A run as its events describe it. Built only by folding events (``run_log.fold``)."""

    run_id: str
    """The run's id."""
    state: RunState
    """RUNNING until it ends, then one terminal state for good."""
    budget: RunBudget
    """The run's limits."""
    usage: BudgetUsage
    """What has been reserved so far."""
    tools: Mapping[str, bool]
    """Granted tool names, each with its read-only declaration."""
    context: DiagnosisContext
    """The service and window under diagnosis."""
    started_at: datetime
    """When the run started."""
    deadline: datetime
    """When the run times out."""
    tool_call_ids: frozenset[str]
    """Every tool_call_id reserved in this run."""
    ended_at: datetime | None = None
    """When the run left RUNNING."""
    failure_code: FailureCode | None = None
    """Why the run did not end in SUCCESS, when it did not."""

    def remaining(self, name: BudgetName) -> int:
        """How much of one budget counter is left."""
        return self.usage.remaining(self.budget, name)

    def is_past_deadline(self, now: datetime) -> bool:
        """True when ``now`` is at or after the deadline."""
        return now >= self.deadline
