"""A run's budget (limits) and its usage (what has been reserved so far)."""

from __future__ import annotations

from enum import StrEnum

from attrs import field, frozen
from attrs.validators import ge

__all__ = ["BudgetName", "BudgetUsage", "RunBudget"]

_KIB = 1024
_MIB = 1024 * 1024


class BudgetName(StrEnum):
    """The run-wide counters a reservation draws on."""

    TOOL_CALLS = "tool_calls"
    REQUEST_BYTES = "request_bytes"
    RAW_BYTES = "raw_bytes"
    PROJECTION_BYTES = "projection_bytes"
    MODEL_CALLS = "model_calls"
    MODEL_TOKENS = "model_tokens"


@frozen
class RunBudget:
    """Limits for one run. Every limit is configurable (``[budget]``); defaults are sane."""

    tool_calls: int = field(default=24, validator=ge(0))
    """Tool calls the run may reserve."""
    request_bytes: int = field(default=256 * _KIB, validator=ge(0))
    """Bytes of tool-call arguments over the whole run."""
    raw_bytes: int = field(default=64 * _MIB, validator=ge(0))
    """Bytes of raw backend responses kept over the whole run."""
    projection_bytes: int = field(default=1 * _MIB, validator=ge(0))
    """Bytes of projected agent results over the whole run."""
    call_raw_bytes: int = field(default=8 * _MIB, validator=ge(0))
    """Largest raw response of a single call; a larger one is an ERROR, never truncated."""
    call_projection_bytes: int = field(default=64 * _KIB, validator=ge(0))
    """Largest projected agent result of a single call."""
    record_bytes: int = field(default=10 * _MIB, validator=ge(0))
    """Largest whole canonical record (request + raw + agent result) of a single call."""
    model_calls: int = field(default=40, validator=ge(0))
    """Model calls (agent turns, repair and semantic attempts)."""
    model_tokens: int = field(default=400_000, validator=ge(0))
    """Model tokens (prompt + completion) over the whole run."""
    deadline_seconds: int = field(default=300, validator=ge(1))
    """Wall-clock seconds from the start of the run to its deadline."""

    def limit_of(self, name: BudgetName) -> int:
        """The run-wide limit of one counter (each counter is a field of the same name)."""
        limit: int = getattr(self, name.value)
        return limit


@frozen
class BudgetUsage:
    """What a run has reserved so far; folded from its events."""

    tool_calls: int = 0
    """Tool calls reserved."""
    request_bytes: int = 0
    """Request bytes reserved."""
    raw_bytes: int = 0
    """Raw response bytes reserved."""
    projection_bytes: int = 0
    """Projected agent-result bytes reserved."""
    model_calls: int = 0
    """Model calls reserved."""
    model_tokens: int = 0
    """Model tokens recorded."""

    def used(self, name: BudgetName) -> int:
        """The current value of one counter (each counter is a field of the same name)."""
        used: int = getattr(self, name.value)
        return used

    def remaining(self, budget: RunBudget, name: BudgetName) -> int:
        """How much of one counter is left (never negative)."""
        return max(0, budget.limit_of(name) - self.used(name))
