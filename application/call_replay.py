"""Answering a call whose tool_call_id is already taken in its run: a retry, or a reuse.

A transport retry (the reply was lost, the client sends the same call again) must not run
anything: the same run, tool_call_id and arguments get the original observation again, rebuilt
from the canonical record and the vault (READY, ERROR, or a recorded refusal), with nothing
appended, reserved or counted. "The same arguments" is decided on the digest of the canonical
form of the parsed envelope, not on raw bytes. Other arguments under a taken id are refused
DUPLICATE_TOOL_CALL_ID, with nothing recorded either.

A retry of a call still PROJECTING (its first attempt runs in another worker, or in another
thread of this one) waits for the call to finish, driven by the store's appends, up to the
configured time; a call still running then answers ERROR ``CALL_IN_PROGRESS`` and a call past
its abandonment moment is closed ABANDONED first. A result that left the vault answers ERROR
``RESULT_EXPIRED`` (``RESULT_UNAVAILABLE`` when its body is tampered with or missing): a
retry never runs the call again.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import assert_never

from factledger.application.abandoned_calls import close_abandoned_in
from factledger.application.canonical_view import CanonicalViewReader, ContentState
from factledger.application.log_wait import wait_for_append
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.application.tool_api.spec import PreparedCall, ToolSpec
from factledger.application.views import (
    error_observation,
    ready_observation,
    refused_observation,
    with_checked_scope,
    with_repair,
    with_stop,
)
from factledger.domain.abandoned import abandon_at
from factledger.domain.codec import sha256_hex
from factledger.domain.error_codes import ToolBoundaryErrorCode as Code
from factledger.domain.invocation import Failed, Invocation, Projecting, Ready
from factledger.domain.json_types import JsonObject
from factledger.domain.progress.decisions import RefusalKind
from factledger.domain.progress.policy import RejectionReason
from factledger.domain.progress.refusals import (
    DuplicateRefused,
    RecordedRefusal,
    StopRefused,
    ViolationRefused,
)
from factledger.domain.run_log import RunLog
from factledger.domain.status import StopReason
from factledger.ports.clock import Clock

__all__ = ["CallReplay", "same_arguments"]


def same_arguments(known: Invocation | RecordedRefusal, prepared: PreparedCall) -> bool:
    """True when ``prepared`` repeats the recorded call (digests of canonical forms; for a
    call recorded without one, the digest of the exact request bytes)."""
    if isinstance(known, Projecting | Ready | Failed):
        recorded = known.info.arguments_digest
        if recorded is None:
            exact = sha256_hex(prepared.arguments_json.encode("utf-8"))
            return known.info.request_digest == exact
        return recorded == prepared.arguments_digest
    return known.arguments_digest == prepared.arguments_digest


class CallReplay:
    """Rebuilds the original observation of a call whose id is taken."""

    def __init__(
        self,
        runs: RunRepository,
        canonical: CanonicalViewReader,
        clock: Clock,
        *,
        retry_wait: timedelta = timedelta(seconds=30),
    ) -> None:
        self._runs = runs
        self._canonical = canonical
        self._clock = clock
        self._retry_wait = retry_wait

    def answer(
        self, spec: ToolSpec, run_id: str, tool_call_id: str, prepared: PreparedCall
    ) -> JsonObject:
        """The observation for a call under a taken id (reads the run fresh)."""
        log = self._runs.load(run_id)
        if isinstance(log, StoreFailed):
            return error_observation(tool_call_id, Code.STORE_ERROR.value, None)
        known: Invocation | RecordedRefusal | None = log.invocation(tool_call_id)
        if known is None:
            known = log.progress.refusals.get(tool_call_id)
        if known is None or not same_arguments(known, prepared):
            return refused_observation(tool_call_id, Code.DUPLICATE_TOOL_CALL_ID.value)
        if isinstance(known, ViolationRefused | DuplicateRefused | StopRefused):
            return _with_stop_if_caused(log, tool_call_id, _refusal(tool_call_id, known, prepared))
        finished = self._finished(log, tool_call_id)
        if isinstance(finished, Code):
            return error_observation(tool_call_id, finished.value, None)
        rebuilt = self._rebuilt(spec, finished, tool_call_id)
        return _with_stop_if_caused(finished, tool_call_id, rebuilt)

    def _rebuilt(self, spec: ToolSpec, log: RunLog, tool_call_id: str) -> JsonObject:
        """The observation of a finished call, from its record and its bodies."""
        invocation = log.invocation(tool_call_id)
        if isinstance(invocation, Failed):
            return error_observation(tool_call_id, invocation.error_code.value, invocation.reason)
        assert isinstance(invocation, Ready)  # finished, so READY or ERROR
        if tool_call_id in log.progress.rejected:
            return refused_observation(
                tool_call_id, RejectionReason.OBSERVATION_CONTRACT_MISMATCH.value
            )
        records = self._canonical.read_from_log(log, [tool_call_id])
        if isinstance(records, StoreFailed):
            return error_observation(tool_call_id, Code.STORE_ERROR.value, None)
        record = records[tool_call_id]
        assert record is not None  # the call is in this very log
        match record.content:
            case ContentState.AVAILABLE:
                assert record.agent_result is not None
                return ready_observation(
                    tool_call_id, spec, record.agent_result, invocation.evidence_status
                )
            case ContentState.EXPIRED:
                return error_observation(tool_call_id, Code.RESULT_EXPIRED.value, None)
            case ContentState.TAMPERED | ContentState.MISSING:
                reason = record.content.value
                return error_observation(tool_call_id, Code.RESULT_UNAVAILABLE.value, reason)
            case _:
                assert_never(record.content)

    def _finished(self, log: RunLog, tool_call_id: str) -> RunLog | Code:
        """The log once the call is no longer PROJECTING, or the code to answer with."""
        deadline = time.monotonic() + self._retry_wait.total_seconds()
        while True:
            invocation = log.invocation(tool_call_id)
            if not isinstance(invocation, Projecting):
                return log
            now = self._clock.now()
            if abandon_at(invocation.info) <= now:
                closed = close_abandoned_in(self._runs, log, now)
                if isinstance(closed, StoreFailed) or closed is log:
                    return Code.STORE_ERROR
                log = closed
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                return Code.CALL_IN_PROGRESS
            wait_for_append(self._runs.store, log.run_id, log.sequence, left)
            fresh = self._runs.load(log.run_id)
            if isinstance(fresh, StoreFailed):
                return Code.STORE_ERROR
            log = fresh


def _with_stop_if_caused(log: RunLog, tool_call_id: str, observation: JsonObject) -> JsonObject:
    progress = log.progress
    if progress.stop_reason is not None and progress.stopped_by == tool_call_id:
        return with_stop(observation, progress.stop_reason)
    return observation


def _refusal(tool_call_id: str, refusal: RecordedRefusal, prepared: PreparedCall) -> JsonObject:
    match refusal:
        case ViolationRefused():
            observation = refused_observation(tool_call_id, RefusalKind.PROTOCOL_VIOLATION.value)
            return with_repair(
                observation,
                refusal.violation,
                refusal.expected_tool_call_ids,
                listed=refusal.step is not None,
            )
        case DuplicateRefused():
            observation = refused_observation(tool_call_id, RefusalKind.DUPLICATE_SCOPE.value)
            return with_checked_scope(observation, prepared.scope)
        case StopRefused():
            if refusal.reason is StopReason.BUDGET_LIMIT_REACHED:
                return refused_observation(tool_call_id, Code.BUDGET_EXHAUSTED.value)
            return refused_observation(tool_call_id, RefusalKind.STOP_REQUIRED.value)
