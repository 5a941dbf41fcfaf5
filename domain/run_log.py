"""The state of one run's stream, folded from its events.

``apply`` never validates (it only folds); ``fold`` refuses an event whose sequence is not
the previous one plus one, or that belongs to another run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Literal, TypeAlias, assert_never

from attrs import evolve, frozen
from returns.result import Failure, Result, Success

from factledger.domain.budget import BudgetUsage
from factledger.domain.events import GENESIS_HASH, Event, RecordedEvent
from factledger.domain.invocation import Failed, Invocation, InvocationInfo, Projecting, Ready
from factledger.domain.progress.events import ProgressEvent
from factledger.domain.progress.state import ProgressState, evolve_progress
from factledger.domain.release.events import DraftChecked, ReleaseDecided, ReleaseEvent
from factledger.domain.run import Run
from factledger.domain.run_events import (
    InvocationBegan,
    InvocationFailed,
    InvocationReady,
    ModelCallFailed,
    ModelCallPurpose,
    ModelCallReserved,
    ModelUsageRecorded,
    RunEnded,
    RunStarted,
    ToolCallReserved,
)
from factledger.domain.status import RunState

__all__ = ["FoldError", "RunLog", "apply", "fold"]

_NO_INVOCATIONS: Mapping[str, Invocation] = {}
_OtherAggregates: TypeAlias = ProgressEvent | ReleaseEvent
_NO_PROGRESS = ProgressState()


@frozen
class RunLog:
    """Everything a run's events say, as of one sequence number."""

    run_id: str
    """The run."""
    sequence: int = 0
    """The last applied sequence (0 before the first event)."""
    head_hash: str = GENESIS_HASH
    """The hash of the last applied event."""
    run: Run | None = None
    """The Run aggregate, once started."""
    invocations: Mapping[str, Invocation] = _NO_INVOCATIONS
    """Every invocation of the run by tool_call_id."""
    progress: ProgressState = _NO_PROGRESS
    """The ProgressTracker aggregate."""
    released: ReleaseDecided | None = None
    """The release decision, once recorded (a run is released once)."""
    checks: int = 0
    """How many drafts were checked without being released (DRAFT_CHECK events)."""
    agent_model_failure: ModelCallFailed | None = None
    """The agent's last turn, when it failed (cleared by a later agent turn's reservation)."""

    def invocation(self, tool_call_id: str) -> Invocation | None:
        """The invocation with exactly this id in this run, if any."""
        return self.invocations.get(tool_call_id)

    def started_run(self) -> Run:
        """The run of a log whose run has started; a ``ValueError`` (a caller's mistake, never
        a run's outcome) for a log that has none yet."""
        if self.run is None:
            raise ValueError("the run has not started")
        return self.run


@frozen
class FoldError:
    """A stream that cannot be folded: a gap, a repeat or a foreign event."""

    sequence: int
    """The sequence of the offending event."""
    reason: Literal["SEQUENCE_GAP", "FOREIGN_RUN"]
    """A gap in the sequence or an event of another run."""


def _with(run: Run, usage: BudgetUsage, tool_call_ids: frozenset[str] | None = None) -> Run:
    # A direct constructor call: folding is the hot path, and attrs.evolve introspects.
    return Run(
        run.run_id,
        run.state,
        run.budget,
        usage,
        run.tools,
        run.context,
        run.started_at,
        run.deadline,
        run.tool_call_ids if tool_call_ids is None else tool_call_ids,
        run.ended_at,
        run.failure_code,
    )


def _started(event: RunStarted, at: datetime) -> Run:
    return Run(
        run_id=event.run_id,
        state=RunState.RUNNING,
        budget=event.budget,
        usage=BudgetUsage(),
        tools={grant.name: grant.read_only for grant in event.tools},
        context=event.context,
        started_at=at,
        deadline=event.deadline,
        tool_call_ids=frozenset(),
    )


def _evolve_run(run: Run | None, event: Event, at: datetime) -> Run | None:
    if isinstance(event, RunStarted):
        return _started(event, at)
    if run is None:
        return None
    if isinstance(event, _OtherAggregates):  # folded beside the run, not into it
        return run
    u = run.usage
    match event:
        case ToolCallReserved():
            usage = BudgetUsage(
                u.tool_calls + 1,
                u.request_bytes + event.request_bytes,
                u.raw_bytes,
                u.projection_bytes,
                u.model_calls,
                u.model_tokens,
            )
            return _with(run, usage, run.tool_call_ids | {event.tool_call_id})
        case InvocationReady():
            usage = BudgetUsage(
                u.tool_calls,
                u.request_bytes,
                u.raw_bytes + event.raw_bytes,
                u.projection_bytes + event.projection_bytes,
                u.model_calls,
                u.model_tokens,
            )
            return _with(run, usage)
        case ModelCallReserved():
            return _with(run, evolve(u, model_calls=u.model_calls + 1))
        case ModelUsageRecorded():
            tokens = u.model_tokens + event.prompt_tokens + event.completion_tokens
            return _with(run, evolve(u, model_tokens=tokens))
        case RunEnded():
            return evolve(run, state=event.state, failure_code=event.failure_code, ended_at=at)
        case InvocationBegan() | InvocationFailed() | ModelCallFailed():
            return run
        case _:
            assert_never(event)


def _evolve_invocation(current: Invocation | None, event: Event, at: datetime) -> Invocation | None:
    match event:
        case InvocationBegan():
            return Projecting(
                InvocationInfo(
                    tool_call_id=event.tool_call_id,
                    tool_name=event.tool_name,
                    step=event.step,
                    request_bytes=event.request_bytes,
                    request_digest=event.request_digest,
                    started_at=at,
                    content_expires_at=event.content_expires_at,
                    arguments_digest=event.arguments_digest,
                    scope_identity=event.scope_identity,
                    abandon_at=event.abandon_at,
                )
            )
        case InvocationReady() if current is not None:
            return Ready(
                info=current.info,
                evidence_status=event.evidence_status,
                raw_bytes=event.raw_bytes,
                raw_digest=event.raw_digest,
                projection_bytes=event.projection_bytes,
                result_digest=event.result_digest,
                truncated=event.truncated,
                completed_at=at,
            )
        case InvocationFailed() if current is not None:
            return Failed(
                info=current.info,
                error_code=event.error_code,
                reason=event.reason,
                raw_bytes=event.raw_bytes,
                completed_at=at,
            )
        case _:
            return current


_INVOCATION_EVENTS = (InvocationBegan, InvocationReady, InvocationFailed)


def apply(log: RunLog, recorded: RecordedEvent) -> RunLog:
    """Fold one recorded event into the log. Never validates (``fold`` does)."""
    event = recorded.event
    at = recorded.occurred_at
    invocations = log.invocations
    progress = log.progress
    if isinstance(event, ProgressEvent):
        progress = evolve_progress(progress, event)
        return RunLog(
            log.run_id, recorded.sequence, recorded.hash, log.run, invocations, progress,
            log.released, log.checks, log.agent_model_failure,
        )  # fmt: skip
    if isinstance(event, ReleaseEvent):
        released = event if isinstance(event, ReleaseDecided) else log.released
        checks = log.checks + 1 if isinstance(event, DraftChecked) else log.checks
        return RunLog(
            log.run_id, recorded.sequence, recorded.hash, log.run, invocations, progress,
            released, checks, log.agent_model_failure,
        )  # fmt: skip
    if isinstance(event, RunStarted):
        progress = ProgressState(policy=event.progress)
    if isinstance(event, _INVOCATION_EVENTS):
        tool_call_id = event.tool_call_id
        updated = _evolve_invocation(invocations.get(tool_call_id), event, at)
        if updated is not None:
            invocations = {**invocations, tool_call_id: updated}
        run = log.run if isinstance(event, InvocationBegan | InvocationFailed) else None
        if run is None:
            run = _evolve_run(log.run, event, at)
    else:
        run = _evolve_run(log.run, event, at)
    return RunLog(
        log.run_id, recorded.sequence, recorded.hash, run, invocations, progress, log.released,
        log.checks, _agent_model_failure(log.agent_model_failure, event),
    )  # fmt: skip


def _agent_model_failure(current: ModelCallFailed | None, event: Event) -> ModelCallFailed | None:
    if isinstance(event, ModelCallFailed) and event.purpose is ModelCallPurpose.AGENT_TURN:
        return event
    if isinstance(event, ModelCallReserved) and event.purpose is ModelCallPurpose.AGENT_TURN:
        return None
    return current


def fold(events: Iterable[RecordedEvent], start: RunLog) -> Result[RunLog, FoldError]:
    """Fold events onto ``start``, refusing a gap, a repeat or an event of another run."""
    log = start
    for recorded in events:
        if recorded.run_id != log.run_id:
            return Failure(FoldError(recorded.sequence, "FOREIGN_RUN"))
        if recorded.sequence != log.sequence + 1:
            return Failure(FoldError(recorded.sequence, "SEQUENCE_GAP"))
        log = apply(log, recorded)
    return Success(log)
