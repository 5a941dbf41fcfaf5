"""The ToolBoundary: the one gate every tool call passes (SPEC §3).

Phases, in order: (1) preflight, (2) reserve the call and its request bytes, (3) begin the
invocation (PROJECTING) — 1–3 are decided together and appended atomically with the request
body; (4) execute the backend with a timeout; (5) check the raw size (over the limit is an
ERROR, never truncated); (6) project; (7) check the projection size, reserve raw and
projection bytes and mark READY — appended atomically with the raw and result bodies.
Any failure after (3) ends the invocation as ERROR; a store failure is STORE_ERROR with a
``reason`` saying which (an outage, a corrupted log, a diverged store). Every
reservation and the READY transition re-check that the run is still RUNNING.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import assert_never

from attrs import define
from returns.result import Failure, Success

from factledger.application.backend_runner import BackendRunner, run_inline
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
    RunNotActive,
    boundary_code,
)
from factledger.domain.run_events import InvocationBegan
from factledger.domain.run_log import RunLog
from factledger.domain.tool_result import BackendFailureKind, ProjectedToolResult
from factledger.ports.clock import Clock
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadWrite
from factledger.ports.telemetry import SILENT, CallFinished, CallLog
from factledger.ports.tools import ResultProjector, ToolExecutor

__all__ = ["ToolBoundary"]

_BACKEND_CODES = {
    BackendFailureKind.BACKEND_ERROR: Code.BACKEND_ERROR,
    BackendFailureKind.BACKEND_TIMEOUT: Code.BACKEND_TIMEOUT,
    BackendFailureKind.INVALID_REQUEST: Code.INVALID_REQUEST,
}


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
        call_log: CallLog = SILENT,
    ) -> None:
        self._log = call_log
        self._runs = runs
        self._clock = clock
        self._runner = runner
        self._content_ttl = content_ttl
        self._backend_timeout = backend_timeout

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
        self._log.call_finished(_finished(envelope, result, time.perf_counter() - started))
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
            run_id=envelope.run_id,
            tool_call_id=tool_call_id,
            tool_name=envelope.tool_name,
            arguments_json=envelope.arguments_json,
            authorized=envelope.authorized,
            read_only=envelope.read_only,
            step=context.step,
            content_ttl=self._content_ttl,
            now=now,
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
                call = _BegunCall(context.run_id, envelope.tool_name, began.log, invocation, hooks)
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
        call: _BegunCall,
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
            return self._fail(call, _BACKEND_CODES[failure.kind], failure.reason)
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
        result = _project(projector, raw_text)
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
            decided = decide_complete_invocation(log, complete)
            if not isinstance(decided, Success):
                return decided
            return Success(decided.unwrap() + call.hooks.with_finish(log, finished))

        completed = self._runs.execute(
            call.run_id, decide_ready, payloads=lambda _: bodies, now=now
        )
        match completed:
            case Committed():
                return BoundaryReady(
                    tool_call_id=call.tool_call_id,
                    tool_name=call.tool_name,
                    result=result,
                    request_bytes=request_bytes,
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
                return self._fail(call, Code.STORE_ERROR)
            case StoreFailed():
                return self._store_failed(call, completed)
            case _:
                assert_never(completed)

    def _store_failed(self, call: _BegunCall, failed: StoreFailed) -> BoundaryFailed:
        """The READY append failed in the store: ERROR (best effort), STORE_ERROR and why."""
        reason = store_error_reason(failed)
        self._fail(call, Code.STORE_ERROR, reason)
        return BoundaryFailed(call.tool_call_id, Code.STORE_ERROR, reason)

    def _fail(self, call: _BegunCall, code: Code, reason: str | None = None) -> BoundaryFailed:
        """End the begun call as ERROR (best effort); a store failure is STORE_ERROR."""
        command = FailInvocation(call.tool_call_id, code, reason, call.raw_bytes)
        finished = FinishedInBoundary(call.tool_call_id, None, code)

        def decide_fail(log: RunLog) -> Decision:
            decided = decide_fail_invocation(log, command)
            if not isinstance(decided, Success):
                return decided
            return Success(decided.unwrap() + call.hooks.with_finish(log, finished))

        outcome: ExecuteOutcome = self._runs.execute(call.run_id, decide_fail)
        if isinstance(outcome, StoreFailed):
            return BoundaryFailed(call.tool_call_id, Code.STORE_ERROR, store_error_reason(outcome))
        return BoundaryFailed(call.tool_call_id, code, reason)


@define
class _BegunCall:
    """A call past phase 3, with what later phases learn about it."""

    run_id: str
    tool_name: str
    log: RunLog
    invocation: Projecting
    hooks: CallHooks
    raw_bytes: int | None = None

    @property
    def tool_call_id(self) -> str:
        return self.invocation.info.tool_call_id

    def body(self, part: PayloadPart, body: bytes) -> PayloadWrite:
        """A body of this call, expiring when its request body does (never later)."""
        key = PayloadKey(self.run_id, self.tool_call_id, part)
        return PayloadWrite(key, body, self.invocation.info.content_expires_at)


def _finished(
    envelope: ToolCallRequestEnvelope, result: ToolBoundaryResult, seconds: float
) -> CallFinished:
    ready = isinstance(result, BoundaryReady)
    return CallFinished(
        run_id=envelope.run_id,
        tool_call_id=envelope.tool_call_id,
        tool_name=envelope.tool_name,
        status="READY" if ready else "REFUSED" if isinstance(result, BoundaryRefused) else "ERROR",
        code=None if isinstance(result, BoundaryReady) else result.code,
        request_bytes=len(envelope.arguments_json.encode("utf-8")),
        raw_bytes=result.raw_bytes if isinstance(result, BoundaryReady) else None,
        projection_bytes=result.projection_bytes if isinstance(result, BoundaryReady) else None,
        duration_ms=seconds * 1000,
    )


def _project(projector: ResultProjector, raw_text: str) -> ProjectedToolResult | None:
    try:
        projected = projector(raw_text)
    except Exception:  # nothing of a projector's exception may reach the model
        return None
    if isinstance(projected, Failure):
        return None
    result = projected.unwrap()
    return result if isinstance(result, ProjectedToolResult) else None
