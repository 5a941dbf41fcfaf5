"""The ToolBoundary: the one gate every tool call passes.

Phases, in order: (1) preflight, (2) reserve the call and its request bytes, (3) begin the
invocation (PROJECTING) — 1–3 are decided together and appended atomically with the request
body; (4) execute the backend with a timeout; (5) check the raw size (over the limit is an
ERROR, never truncated); (6) project; (7) check the projection size, reserve raw and
projection bytes and mark READY — appended atomically with the raw and result bodies.
Any failure after (3) ends the invocation as ERROR; a store failure is STORE_ERROR with a
``reason`` saying which (an outage, a corrupted log, a diverged store). Every reservation and
the READY transition re-check that the run is still RUNNING. The begin records when the call
counts as abandoned (its backend timeout plus a grace period): a later command on the run
closes it then as ERROR ABANDONED, and a worker that comes back after that gets ERROR
ABANDONED for it and reserves nothing.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import assert_never

from returns.result import Failure, Success

from factledger.application.backend_runner import BackendRunner, run_inline
from factledger.application.boundary_call import (
    BACKEND_CODES,
    BegunCall,
    finished_record,
    project,
    recorded_end,
)
from factledger.application.run_limits import end_for_refusal
from factledger.application.run_repository import (
    Committed,
    ExecuteOutcome,
    Refused,
    RunRepository,
    StoreFailed,
)
from factledger.application.store_failures import store_error_reason
from factledger.application.tool_call import (
    NO_HOOKS,
    BoundaryFailed,
    BoundaryReady,
    BoundaryRefused,
    CallHooks,
    FinishedInBoundary,
    RunContext,
    ToolBoundaryResult,
    ToolCallRequestEnvelope,
)
from factledger.domain.budget import BudgetName
from factledger.domain.codec import canonical_json, sha256_hex
from factledger.domain.error_codes import ToolBoundaryErrorCode as Code
from factledger.domain.events import Event
from factledger.domain.invocation import Projecting
from factledger.domain.run_commands import (
    BeginToolCall,
    CompleteInvocation,
    FailInvocation,
)
from factledger.domain.run_decisions import (
    Decision,
    decide_begin_tool_call,
    decide_complete_invocation,
    decide_fail_invocation,
    projection_size_error,
    raw_size_error,
)
from factledger.domain.run_errors import (
    BudgetExhausted,
    DeadlinePassed,
    InvocationNotProjecting,
    RunNotActive,
    boundary_code,
)
from factledger.domain.run_events import InvocationBegan
from factledger.domain.run_log import RunLog
from factledger.domain.tool_result import ProjectedToolResult
from factledger.ports.clock import Clock
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadWrite
from factledger.ports.telemetry import SILENT, CallLog
from factledger.ports.tools import ResultProjector, ToolExecutor

__all__ = ["ToolBoundary"]


class ToolBoundary:
    """Orchestrates one call; knows nothing of any particular tool."""

    def __init__(
        self,
        runs: RunRepository,
        clock: Clock,
        runner: BackendRunner,
        *,
        content_ttl: timedelta = timedelta(hours=2),
        backend_timeout: timedelta = timedelta(seconds=30),
        abandon_grace: timedelta = timedelta(seconds=30),
        call_log: CallLog = SILENT,
    ) -> None:
        """``abandon_grace``: a call still PROJECTING this long past ``backend_timeout`` counts
        as abandoned (its worker died) and is closed by a later command on its run."""
        self._log = call_log
        self._runs = runs
        self._clock = clock
        self._runner = runner
        self._content_ttl = content_ttl
        self._backend_timeout = backend_timeout
        self._abandon_after = backend_timeout + abandon_grace

    def invoke(
        self,
        context: RunContext,
        envelope: ToolCallRequestEnvelope,
        executor: ToolExecutor,
        projector: ResultProjector,
        *,
        isolated: bool = True,
        hooks: CallHooks = NO_HOOKS,
    ) -> ToolBoundaryResult:
        """Pass one call through every phase; never raises for anything a call can do.

        ``isolated`` runs the backend on a worker thread the boundary stops waiting for at the
        timeout, so a backend that hangs cannot hang the run. A backend that enforces its own
        time limit (a server-side statement timeout, a deadline checked while scanning) may
        run with ``isolated=False`` in the calling thread and save the thread hand-off.
        Each call ends with one log record: ids, status, code, sizes and duration.
        """
        started = time.perf_counter()
        result = self._invoke(context, envelope, executor, projector, isolated, hooks)
        self._log.call_finished(finished_record(envelope, result, time.perf_counter() - started))
        return result

    def _invoke(
        self,
        context: RunContext,
        envelope: ToolCallRequestEnvelope,
        executor: ToolExecutor,
        projector: ResultProjector,
        isolated: bool,
        hooks: CallHooks,
    ) -> ToolBoundaryResult:
        tool_call_id = envelope.tool_call_id
        now = self._clock.now()
        begin = BeginToolCall(
            envelope=envelope,
            step=context.step,
            content_ttl=self._content_ttl,
            now=now,
            abandon_after=self._abandon_after,
        )
        request_body = envelope.arguments_json.encode("utf-8")

        def request_payload(events: tuple[Event, ...]) -> tuple[PayloadWrite, ...]:
            return tuple(
                PayloadWrite(
                    PayloadKey(context.run_id, tool_call_id, PayloadPart.REQUEST),
                    request_body,
                    event.content_expires_at,
                )
                for event in events
                if isinstance(event, InvocationBegan)
            )

        def decide_begin(log: RunLog) -> Decision:
            decided = decide_begin_tool_call(log, begin)
            if not isinstance(decided, Success):
                return decided
            return Success(hooks.with_begin(log) + decided.unwrap())

        began = self._runs.execute(context.run_id, decide_begin, payloads=request_payload, now=now)
        match began:
            case Committed():
                invocation = began.log.invocation(tool_call_id)
                assert isinstance(invocation, Projecting)  # just appended
                call = BegunCall(context.run_id, envelope.tool_name, began.log, invocation, hooks)
                return self._run_begun(call, executor, projector, isolated)
            case Refused():
                end_for_refusal(self._runs, context.run_id, began.error, budget_ends_run=False)
                return BoundaryRefused(tool_call_id, boundary_code(began.error))
            case StoreFailed():
                return BoundaryFailed(tool_call_id, Code.STORE_ERROR, store_error_reason(began))
            case _:
                assert_never(began)

    def _run_begun(
        self,
        call: BegunCall,
        executor: ToolExecutor,
        projector: ResultProjector,
        isolated: bool,
    ) -> ToolBoundaryResult:
        run = call.log.run
        assert run is not None  # a call only begins in a started run
        budget = run.budget
        request_bytes = call.invocation.info.request_bytes

        # Phase 4: execute, never past the run's deadline.
        left = min(self._backend_timeout, run.deadline - self._clock.now()).total_seconds()
        run_backend = self._runner.run if isolated else run_inline
        executed = run_backend(executor, left)
        if isinstance(executed, Failure):
            failure = executed.failure()
            return self._fail(call, BACKEND_CODES[failure.kind], failure.reason)
        raw_text = executed.unwrap()
        raw = raw_text.encode("utf-8")
        call.raw_bytes = len(raw)

        # Phase 5: raw size, per call and against what the run has left.
        too_large = raw_size_error(budget, request_bytes, len(raw))
        if too_large is not None:
            return self._fail(call, too_large)
        if run.remaining(BudgetName.RAW_BYTES) < len(raw):
            return self._fail(call, Code.BUDGET_EXHAUSTED)

        # Phase 6: project (foreign code: any exception is a PROJECTION_ERROR).
        result = project(projector, raw_text)
        if result is None:
            return self._fail(call, Code.PROJECTION_ERROR)
        try:
            result_body = canonical_json(result.agent_result)
        except (TypeError, ValueError):
            return self._fail(call, Code.PROJECTION_ERROR)

        # Phase 7: projection size, then reserve and mark READY with the bodies, atomically.
        too_large = projection_size_error(budget, request_bytes, len(raw), len(result_body))
        if too_large is not None:
            return self._fail(call, too_large)
        return self._mark_ready(call, raw, result, result_body)

    def _mark_ready(
        self, call: BegunCall, raw: bytes, result: ProjectedToolResult, result_body: bytes
    ) -> ToolBoundaryResult:
        """Phase 7's append: reserve raw and projection bytes and mark READY with the bodies."""
        now = self._clock.now()
        complete = CompleteInvocation(
            tool_call_id=call.tool_call_id,
            evidence_status=result.evidence_status,
            raw_bytes=len(raw),
            raw_digest=sha256_hex(raw),
            projection_bytes=len(result_body),
            result_digest=sha256_hex(result_body),
            truncated=result.truncated,
            now=now,
        )
        bodies = (call.body(PayloadPart.RAW, raw), call.body(PayloadPart.RESULT, result_body))
        finished = FinishedInBoundary(call.tool_call_id, result, None)

        def decide_ready(log: RunLog) -> Decision:
            return _then_finish(decide_complete_invocation(log, complete), call, log, finished)

        completed = self._runs.execute(
            call.run_id, decide_ready, payloads=lambda _: bodies, now=now
        )
        match completed:
            case Committed():
                return BoundaryReady(
                    tool_call_id=call.tool_call_id,
                    tool_name=call.tool_name,
                    result=result,
                    request_bytes=call.invocation.info.request_bytes,
                    raw_bytes=len(raw),
                    projection_bytes=len(result_body),
                )
            case Refused():
                error = completed.error
                if isinstance(error, DeadlinePassed):
                    end_for_refusal(self._runs, call.run_id, error)
                    return self._fail(call, Code.RUN_NOT_ACTIVE)
                if isinstance(error, RunNotActive):
                    return self._fail(call, Code.RUN_NOT_ACTIVE)
                if isinstance(error, BudgetExhausted):
                    return self._fail(call, Code.BUDGET_EXHAUSTED)
                if isinstance(error, InvocationNotProjecting):
                    return self._fail(call, Code.ABANDONED)  # closed while the backend ran
                return self._fail(call, Code.STORE_ERROR)
            case StoreFailed():
                return self._store_failed(call, completed)
            case _:
                assert_never(completed)

    def _store_failed(self, call: BegunCall, failed: StoreFailed) -> BoundaryFailed:
        """The READY append failed in the store: ERROR (best effort), STORE_ERROR and why."""
        reason = store_error_reason(failed)
        self._fail(call, Code.STORE_ERROR, reason)
        return BoundaryFailed(call.tool_call_id, Code.STORE_ERROR, reason)

    def _fail(self, call: BegunCall, code: Code, reason: str | None = None) -> BoundaryFailed:
        """End the begun call as ERROR (best effort); a store failure is STORE_ERROR."""
        command = FailInvocation(call.tool_call_id, code, reason, call.raw_bytes)
        finished = FinishedInBoundary(call.tool_call_id, None, code)

        def decide_fail(log: RunLog) -> Decision:
            return _then_finish(decide_fail_invocation(log, command), call, log, finished)

        outcome: ExecuteOutcome = self._runs.execute(call.run_id, decide_fail)
        if isinstance(outcome, StoreFailed):
            return BoundaryFailed(call.tool_call_id, Code.STORE_ERROR, store_error_reason(outcome))
        if isinstance(outcome, Refused) and isinstance(outcome.error, InvocationNotProjecting):
            # Someone else ended it first (a later command closed it as ABANDONED).
            loaded = self._runs.load(call.run_id)
            if not isinstance(loaded, StoreFailed):
                ended = recorded_end(loaded, call.tool_call_id)
                if ended is not None:
                    return ended
        return BoundaryFailed(call.tool_call_id, code, reason)


def _then_finish(
    decided: Decision, call: BegunCall, log: RunLog, finished: FinishedInBoundary
) -> Decision:
    """The call's finishing events followed by what its finish hook adds; a refusal as it is."""
    if not isinstance(decided, Success):
        return decided
    return Success(decided.unwrap() + call.hooks.with_finish(log, finished))
