"""What a store must re-check atomically when it appends a run's new events.

The decision was made on a folded state; a store re-checks, inside the same atomic append,
that the expected sequence still holds, that no unique key is taken and that no budget
counter would pass its limit (a second guard beside the sequence check). These functions
derive those guards from the events themselves, so no caller can forget one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, TypeAlias

from attrs import frozen

from factledger.domain.budget import BudgetName, RunBudget
from factledger.domain.events import Event
from factledger.domain.progress.events import (
    CollectionStopped,
    DuplicateScopeRecorded,
    ProtocolViolationRecorded,
)
from factledger.domain.run_events import (
    InvocationReady,
    ModelCallReserved,
    RunEnded,
    RunStarted,
    ToolCallReserved,
)

__all__ = [
    "CounterGuard",
    "MetaField",
    "MetaName",
    "counter_guards",
    "meta_fields",
    "unique_keys",
]

MetaName: TypeAlias = Literal["state", "started_at"]
"""The fields of a run's metadata record that an append may set."""


@frozen
class CounterGuard:
    """Add ``delta`` to the counter ``name`` only if the result stays within ``limit``."""

    name: BudgetName
    """The counter: the budget it meters."""
    delta: int
    """How much to add."""
    limit: int
    """The most it may reach."""


@frozen
class MetaField:
    """A field of the run's metadata record that the append also sets."""

    name: MetaName
    """The field: ``state`` or ``started_at``."""
    value: str
    """Its new value."""


_REFUSALS = (ProtocolViolationRecorded, DuplicateScopeRecorded, CollectionStopped)


def unique_keys(events: Iterable[Event]) -> tuple[str, ...]:
    """Keys that must not exist yet in the run: one per tool_call_id the events take — a
    reserved call, or a refused call whose refusal is recorded (its id is taken too: a retry
    of it is answered from the record, never decided again)."""
    keys: dict[str, None] = {}
    for event in events:
        if type(event) is ToolCallReserved or (
            isinstance(event, _REFUSALS) and event.arguments_digest is not None
        ):
            keys[f"tool_call_id:{event.tool_call_id}"] = None
    return tuple(keys)


def counter_guards(budget: RunBudget, events: Iterable[Event]) -> tuple[CounterGuard, ...]:
    """The budget counters the events draw on, summed per counter, with their limits."""
    tool_calls = request_bytes = raw_bytes = projection_bytes = model_calls = 0
    for event in events:
        if isinstance(event, ToolCallReserved):
            tool_calls += 1
            request_bytes += event.request_bytes
        elif isinstance(event, InvocationReady):
            raw_bytes += event.raw_bytes
            projection_bytes += event.projection_bytes
        elif isinstance(event, ModelCallReserved):
            model_calls += 1
    guards: list[CounterGuard] = []
    if tool_calls:
        guards.append(CounterGuard(BudgetName.TOOL_CALLS, tool_calls, budget.tool_calls))
        guards.append(CounterGuard(BudgetName.REQUEST_BYTES, request_bytes, budget.request_bytes))
    if raw_bytes or projection_bytes:
        guards.append(CounterGuard(BudgetName.RAW_BYTES, raw_bytes, budget.raw_bytes))
        guards.append(
            CounterGuard(BudgetName.PROJECTION_BYTES, projection_bytes, budget.projection_bytes)
        )
    if model_calls:
        guards.append(CounterGuard(BudgetName.MODEL_CALLS, model_calls, budget.model_calls))
    return tuple(guards)


def meta_fields(events: Iterable[Event]) -> tuple[MetaField, ...]:
    """Run metadata kept beside the stream for listing runs without folding them."""
    fields: dict[MetaName, str] = {}
    for event in events:
        if isinstance(event, RunStarted):
            fields["state"] = "RUNNING"
        elif isinstance(event, RunEnded):
            fields["state"] = event.state.value
    return tuple(MetaField(name, value) for name, value in fields.items())
