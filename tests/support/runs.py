"""Building runs and their logs for tests, through the same code the application uses."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta

from returns.result import Success

from factledger.domain.budget import RunBudget
from factledger.domain.event_catalog import default_codec
from factledger.domain.events import Event, RecordedEvent
from factledger.domain.run_commands import BeginToolCall, ToolCallRequestEnvelope
from factledger.domain.run_events import DiagnosisContext, RunStarted, ToolGrant
from factledger.domain.run_log import RunLog, fold

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
RUN = "run-1"
TOOLS = (ToolGrant("lookup_knowledge", True), ToolGrant("writer", False))


def record(log: RunLog, events: Sequence[Event], at: datetime = T0) -> RunLog:
    """Seal events after the log's head and fold them in (fails the test on a fold error)."""
    recorded = default_codec().seal(log.run_id, log.sequence + 1, log.head_hash, at, events)
    folded = fold(recorded, log)
    assert isinstance(folded, Success), folded
    result: RunLog = folded.unwrap()
    return result


def started_log(
    budget: RunBudget | None = None,
    tools: tuple[ToolGrant, ...] = TOOLS,
    run_id: str = RUN,
    at: datetime = T0,
) -> RunLog:
    """A log holding only RunStarted."""
    budget = budget or RunBudget()
    started = RunStarted(
        run_id=run_id,
        budget=budget,
        tools=tools,
        context=DiagnosisContext(service="payments"),
        deadline=at + timedelta(seconds=budget.deadline_seconds),
    )
    return record(RunLog(run_id), [started], at)


def begin(
    tool_call_id: str = "call-1",
    *,
    tool_name: str = "lookup_knowledge",
    arguments: str = '{"query": "timeouts"}',
    run_id: str = RUN,
    authorized: bool = True,
    read_only: bool = True,
    at: datetime = T0,
) -> BeginToolCall:
    """A BeginToolCall command with sensible defaults."""
    return BeginToolCall(
        envelope=ToolCallRequestEnvelope(
            run_id=run_id,
            tool_call_id=tool_call_id,
            tool_name=tool_name,
            arguments_json=arguments,
            authorized=authorized,
            read_only=read_only,
        ),
        step=1,
        content_ttl=timedelta(hours=2),
        now=at,
    )


def recorded_events(log_events: Iterable[RecordedEvent]) -> list[str]:
    """The type names of recorded events, in order."""
    return [item.event.TYPE for item in log_events]
