"""Decide functions of the Run and Invocation aggregates.

Each takes the folded ``RunLog`` and a command and returns either the new events or the one
reason the command is refused. Nothing here reads a clock, makes an id or does I/O.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import TypeAlias

from returns.result import Failure, Result, Success

from factledger.domain.budget import BudgetName, RunBudget
from factledger.domain.codec import sha256_hex
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.events import Event
from factledger.domain.ids import is_valid_run_id, is_valid_tool_call_id
from factledger.domain.invocation import Projecting
from factledger.domain.run import Run
from factledger.domain.run_commands import (
    BeginToolCall,
    CompleteInvocation,
    EndRun,
    FailInvocation,
    RecordModelUsage,
    ReserveModelCall,
    StartRun,
)
from factledger.domain.run_errors import (
    AlreadyStarted,
    BudgetExhausted,
    DeadlinePassed,
    DuplicateToolCallId,
    InvalidRequest,
    InvalidRunId,
    InvalidToolCallId,
    InvocationNotProjecting,
    RequestTooLarge,
    RunError,
    RunMismatch,
    RunNotActive,
    RunNotStarted,
    ToolNotAuthorized,
    ToolNotReadOnly,
)
from factledger.domain.run_events import (
    InvocationBegan,
    InvocationFailed,
    InvocationReady,
    ModelCallFailed,
    ModelCallReserved,
    ModelUsageRecorded,
    RunEnded,
    RunStarted,
    ToolCallReserved,
)
from factledger.domain.run_log import RunLog
from factledger.domain.status import RunState

__all__ = [
    "Decision",
    "decide_begin_tool_call",
    "decide_complete_invocation",
    "decide_end_run",
    "decide_fail_invocation",
    "decide_record_model_failure",
    "decide_record_model_usage",
    "decide_reserve_model_call",
    "decide_start_run",
    "projection_size_error",
    "raw_size_error",
]

Decision: TypeAlias = Result[tuple[Event, ...], RunError]
"""The events a command produces, or why it is refused."""


def _active_run(log: RunLog) -> Run | RunNotStarted | RunNotActive:
    run = log.run
    if run is None:
        return RunNotStarted(log.run_id)
    if run.state is not RunState.RUNNING:
        return RunNotActive(run.state)
    return run


def _acting_run(log: RunLog, now: datetime) -> Run | RunNotStarted | RunNotActive | DeadlinePassed:
    """The run, when it may still act at ``now``: started, RUNNING and before its deadline."""
    run = _active_run(log)
    if isinstance(run, Run) and run.is_past_deadline(now):
        return DeadlinePassed()
    return run


def _exhausted(run: Run, *needs: tuple[BudgetName, int]) -> BudgetExhausted | None:
    """The first budget, in the order given, with less left than the step needs."""
    for name, amount in needs:
        if run.remaining(name) < amount:
            return BudgetExhausted(name)
    return None


def _is_one_json_value(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    except RecursionError:  # nesting too deep to be a sane argument
        return False
    return True


def decide_start_run(log: RunLog, command: StartRun) -> Decision:
    """A run starts once, with a well-formed id."""
    if not is_valid_run_id(command.run_id) or command.run_id != log.run_id:
        return Failure(InvalidRunId())
    if log.run is not None or log.sequence != 0:
        return Failure(AlreadyStarted(command.run_id))
    deadline = command.now + _seconds(command.budget)
    return Success(
        (
            RunStarted(
                run_id=command.run_id,
                budget=command.budget,
                tools=command.tools,
                context=command.context,
                deadline=deadline,
                progress=command.progress,
            ),
        )
    )


def _seconds(budget: RunBudget) -> timedelta:
    return timedelta(seconds=budget.deadline_seconds)


def decide_begin_tool_call(log: RunLog, command: BeginToolCall) -> Decision:
    """The boundary's phases 1–3: preflight, reserve the call and its request bytes, begin."""
    run = _acting_run(log, command.now)
    if not isinstance(run, Run):
        return Failure(run)
    call = command.envelope
    if call.run_id != log.run_id:
        return Failure(RunMismatch())
    if not is_valid_tool_call_id(call.tool_call_id):
        return Failure(InvalidToolCallId())
    if call.tool_call_id in run.tool_call_ids or call.tool_call_id in log.progress.refusals:
        return Failure(DuplicateToolCallId(call.tool_call_id))
    granted_read_only = run.tools.get(call.tool_name)
    if not call.authorized or granted_read_only is None:
        return Failure(ToolNotAuthorized(call.tool_name))
    if not (call.read_only and granted_read_only):
        return Failure(ToolNotReadOnly(call.tool_name))
    if not _is_one_json_value(call.arguments_json):
        return Failure(InvalidRequest())
    request = call.arguments_json.encode("utf-8")
    size = len(request)
    budget = run.budget
    if size > budget.request_bytes or size > budget.record_bytes:
        return Failure(RequestTooLarge(size))
    exhausted = _exhausted(run, (BudgetName.TOOL_CALLS, 1), (BudgetName.REQUEST_BYTES, size))
    if exhausted is not None:
        return Failure(exhausted)
    return Success(
        (
            ToolCallReserved(
                tool_call_id=call.tool_call_id,
                tool_name=call.tool_name,
                request_bytes=size,
            ),
            InvocationBegan(
                tool_call_id=call.tool_call_id,
                tool_name=call.tool_name,
                step=command.step,
                request_bytes=size,
                request_digest=sha256_hex(request),
                content_expires_at=command.now + command.content_ttl,
                arguments_digest=call.arguments_digest,
                scope_identity=call.scope_identity,
                abandon_at=None
                if command.abandon_after is None
                else command.now + command.abandon_after,
            ),
        )
    )


def raw_size_error(
    budget: RunBudget, request_bytes: int, raw_bytes: int
) -> ToolBoundaryErrorCode | None:
    """Phase 5's per-call check: a raw response over the limit is an ERROR, never truncated."""
    if raw_bytes > budget.call_raw_bytes or request_bytes + raw_bytes > budget.record_bytes:
        return ToolBoundaryErrorCode.RAW_RESPONSE_TOO_LARGE
    return None


def projection_size_error(
    budget: RunBudget, request_bytes: int, raw_bytes: int, projection_bytes: int
) -> ToolBoundaryErrorCode | None:
    """Phase 7's per-call check on the projection and the whole record."""
    record = request_bytes + raw_bytes + projection_bytes
    if projection_bytes > budget.call_projection_bytes or record > budget.record_bytes:
        return ToolBoundaryErrorCode.PROJECTION_TOO_LARGE
    return None


def decide_complete_invocation(log: RunLog, command: CompleteInvocation) -> Decision:
    """Phases 5 and 7: the run must still be RUNNING, the call PROJECTING, the budget open."""
    invocation = log.invocation(command.tool_call_id)
    if not isinstance(invocation, Projecting):
        return Failure(InvocationNotProjecting(command.tool_call_id))
    run = _acting_run(log, command.now)
    if not isinstance(run, Run):
        return Failure(run)
    exhausted = _exhausted(
        run,
        (BudgetName.RAW_BYTES, command.raw_bytes),
        (BudgetName.PROJECTION_BYTES, command.projection_bytes),
    )
    if exhausted is not None:
        return Failure(exhausted)
    return Success(
        (
            InvocationReady(
                tool_call_id=command.tool_call_id,
                evidence_status=command.evidence_status,
                raw_bytes=command.raw_bytes,
                raw_digest=command.raw_digest,
                projection_bytes=command.projection_bytes,
                result_digest=command.result_digest,
                truncated=command.truncated,
            ),
        )
    )


def decide_fail_invocation(log: RunLog, command: FailInvocation) -> Decision:
    """A begun call may always end as ERROR, even in a terminal run; a finished one never."""
    if not isinstance(log.invocation(command.tool_call_id), Projecting):
        return Failure(InvocationNotProjecting(command.tool_call_id))
    return Success(
        (
            InvocationFailed(
                tool_call_id=command.tool_call_id,
                error_code=command.error_code,
                reason=command.reason,
                raw_bytes=command.raw_bytes,
            ),
        )
    )


def decide_end_run(log: RunLog, command: EndRun) -> Decision:
    """A run leaves RUNNING once; a second completion is refused, not applied."""
    run = _active_run(log)
    if not isinstance(run, Run):
        return Failure(run)
    return Success((RunEnded(state=command.state, failure_code=command.failure_code),))


def decide_reserve_model_call(log: RunLog, command: ReserveModelCall) -> Decision:
    """One metered model call, within the run's model-call budget and deadline."""
    run = _acting_run(log, command.now)
    if not isinstance(run, Run):
        return Failure(run)
    exhausted = _exhausted(run, (BudgetName.MODEL_CALLS, 1), (BudgetName.MODEL_TOKENS, 1))
    if exhausted is not None:
        return Failure(exhausted)
    return Success((ModelCallReserved(purpose=command.purpose, step=command.step),))


def decide_record_model_failure(log: RunLog, failed: ModelCallFailed) -> Decision:
    """A model call's failure is recorded as it happened, in any state of a started run."""
    if log.run is None:
        return Failure(RunNotStarted(log.run_id))
    return Success((failed,))


def decide_record_model_usage(log: RunLog, command: RecordModelUsage) -> Decision:
    """Tokens are recorded as billed, even past the budget: the next reservation is refused."""
    if log.run is None:
        return Failure(RunNotStarted(log.run_id))
    return Success(
        (
            ModelUsageRecorded(
                purpose=command.purpose,
                prompt_tokens=command.prompt_tokens,
                completion_tokens=command.completion_tokens,
            ),
        )
    )
