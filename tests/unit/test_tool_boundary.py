"""Every ToolBoundary rule and error code, each with a test that fails without it."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from returns.result import Failure, Success

from factledger.adapters.config.sections import BudgetSettings, StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.memory.clock import SequentialIdFactory
from factledger.adapters.memory.faults import Fault
from factledger.application.canonical_view import CanonicalInvocation, ContentState
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.application.run_service import RunService
from factledger.application.tool_call import BoundaryFailed, BoundaryReady, BoundaryRefused
from factledger.domain.budget import RunBudget
from factledger.domain.error_codes import ToolBoundaryErrorCode as Code
from factledger.domain.invocation import Failed, Ready
from factledger.domain.run_events import InvocationBegan, RunEnded
from factledger.domain.status import EvidenceStatus, FailureCode, InvocationStatus, RunState
from factledger.domain.tool_result import (
    BackendFailure,
    BackendFailureKind,
    ProjectedToolResult,
    ProjectionFailure,
)
from factledger.ports.payload_vault import PayloadKey, PayloadPart
from tests.support.boundary import Backend, Harness, make_harness


@pytest.fixture
def harness() -> Harness:
    return make_harness()


def _refused(result: object, code: Code) -> None:
    assert isinstance(result, BoundaryRefused), result
    assert result.code is code


def _failed(result: object, code: Code) -> BoundaryFailed:
    assert isinstance(result, BoundaryFailed), result
    assert result.code is code
    return result


def _canonical(harness: Harness, run_id: str, tool_call_id: str = "call-1") -> CanonicalInvocation:
    record = harness.runtime.canonical.read(run_id, tool_call_id)
    assert isinstance(record, CanonicalInvocation), record
    return record


def _ignore(_: object) -> None:
    return None


# -- phase 1: preflight ------------------------------------------------------------------------


def test_a_call_in_an_unknown_run_is_refused_and_runs_nothing(harness: Harness) -> None:
    backend = Backend()
    _refused(harness.call("no-such-run", backend=backend), Code.RUN_NOT_ACTIVE)
    assert backend.calls == 0


def test_a_call_in_a_cancelled_run_is_refused(harness: Harness) -> None:
    run_id = harness.start()
    harness.runtime.run_service.cancel(run_id)
    backend = Backend()
    _refused(harness.call(run_id, backend=backend), Code.RUN_NOT_ACTIVE)
    assert backend.calls == 0


def test_a_call_past_the_deadline_is_refused_and_times_the_run_out(harness: Harness) -> None:
    run_id = harness.start(RunBudget(deadline_seconds=30))
    harness.clock.advance(timedelta(seconds=31))
    backend = Backend()
    _refused(harness.call(run_id, backend=backend), Code.RUN_NOT_ACTIVE)
    assert backend.calls == 0
    run = harness.log(run_id).run
    assert run is not None
    assert (run.state, run.failure_code) == (RunState.TIMED_OUT, FailureCode.RUN_TIMED_OUT)


def test_an_envelope_for_another_run_is_a_mismatch(harness: Harness) -> None:
    run_id = harness.start()
    other = harness.start()
    backend = Backend()
    _refused(harness.call(run_id, envelope_run_id=other, backend=backend), Code.RUN_MISMATCH)
    assert backend.calls == 0
    assert harness.log(other).invocations == {}


@pytest.mark.parametrize("tool_call_id", ["", "has space", "x" * 129, "semi;colon"])
def test_a_malformed_tool_call_id_is_refused(harness: Harness, tool_call_id: str) -> None:
    backend = Backend()
    result = harness.call(harness.start(), tool_call_id, backend=backend)
    _refused(result, Code.INVALID_TOOL_CALL_ID)
    assert backend.calls == 0


def test_a_repeated_tool_call_id_is_refused_and_the_first_record_kept(harness: Harness) -> None:
    run_id = harness.start()
    assert isinstance(harness.call(run_id), BoundaryReady)
    backend = Backend(raw='{"other": true}')
    _refused(harness.call(run_id, backend=backend), Code.DUPLICATE_TOOL_CALL_ID)
    assert backend.calls == 0
    assert _canonical(harness, run_id).raw_response == b'{"evidence": [{"id": "doc-1"}]}'


def test_a_tool_not_granted_to_the_run_is_not_authorized(harness: Harness) -> None:
    backend = Backend()
    result = harness.call(harness.start(), tool_name="query_sql", backend=backend)
    _refused(result, Code.TOOL_NOT_AUTHORIZED)
    assert backend.calls == 0


def test_an_envelope_not_authorized_by_its_invoker_is_refused(harness: Harness) -> None:
    backend = Backend()
    _refused(
        harness.call(harness.start(), authorized=False, backend=backend), Code.TOOL_NOT_AUTHORIZED
    )
    assert backend.calls == 0


def test_a_tool_not_declared_read_only_is_refused(harness: Harness) -> None:
    backend = Backend()
    run_id = harness.start()
    _refused(harness.call(run_id, tool_name="writer", backend=backend), Code.TOOL_NOT_READ_ONLY)
    _refused(
        harness.call(run_id, "call-2", read_only=False, backend=backend), Code.TOOL_NOT_READ_ONLY
    )
    assert backend.calls == 0


@pytest.mark.parametrize("arguments", ["", "{", '{"q": 1} trailing', '{"q": 1}{"q": 2}'])
def test_arguments_that_are_not_one_json_value_are_an_invalid_request(
    harness: Harness, arguments: str
) -> None:
    backend = Backend()
    result = harness.call(harness.start(), arguments=arguments, backend=backend)
    _refused(result, Code.INVALID_REQUEST)
    assert backend.calls == 0


# -- phase 2: reservation ----------------------------------------------------------------------


def test_the_tool_call_budget_is_reserved_before_anything_runs(harness: Harness) -> None:
    run_id = harness.start(RunBudget(tool_calls=1))
    assert isinstance(harness.call(run_id, "a"), BoundaryReady)
    backend = Backend()
    _refused(harness.call(run_id, "b", backend=backend), Code.BUDGET_EXHAUSTED)
    assert backend.calls == 0


def test_a_request_larger_than_the_request_budget_is_too_large(harness: Harness) -> None:
    run_id = harness.start(RunBudget(request_bytes=64))
    backend = Backend()
    result = harness.call(run_id, arguments='"' + "x" * 100 + '"', backend=backend)
    _refused(result, Code.REQUEST_TOO_LARGE)
    assert backend.calls == 0


def test_request_bytes_are_reserved_across_calls(harness: Harness) -> None:
    run_id = harness.start(RunBudget(request_bytes=30))
    assert isinstance(harness.call(run_id, "a"), BoundaryReady)
    _refused(harness.call(run_id, "b"), Code.BUDGET_EXHAUSTED)


# -- phase 3: begin ------------------------------------------------------------------------------


def test_the_invocation_is_projecting_while_the_backend_runs(harness: Harness) -> None:
    run_id = harness.start()
    seen: list[InvocationStatus] = []
    backend = Backend(during=lambda: seen.append(_canonical(harness, run_id).status))
    assert isinstance(harness.call(run_id, backend=backend), BoundaryReady)
    assert seen == [InvocationStatus.PROJECTING]
    assert _canonical(harness, run_id).status is InvocationStatus.READY


def test_the_request_body_lives_in_the_vault_and_only_its_digest_in_events(
    harness: Harness,
) -> None:
    run_id = harness.start()
    harness.call(run_id, arguments='{"query": "secret-needle-123"}')
    for event in harness.runtime.store.read_run(run_id).unwrap():
        assert b"secret-needle-123" not in event.data
    record = _canonical(harness, run_id)
    assert record.request == b'{"query": "secret-needle-123"}'


# -- phase 4: execute ----------------------------------------------------------------------------


def test_a_backend_failure_is_an_error_with_a_stable_code(harness: Harness) -> None:
    run_id = harness.start()
    backend = Backend(failure=BackendFailure(BackendFailureKind.BACKEND_ERROR, "UPSTREAM_DOWN"))
    result = _failed(harness.call(run_id, backend=backend), Code.BACKEND_ERROR)
    assert result.reason == "UPSTREAM_DOWN"
    record = _canonical(harness, run_id)
    assert (record.status, record.evidence_status) == (InvocationStatus.ERROR, EvidenceStatus.ERROR)


def test_a_backend_exception_never_reaches_the_caller(harness: Harness) -> None:
    run_id = harness.start()
    backend = Backend(raises=RuntimeError("password=hunter2 at redis://cache:6379"))
    result = _failed(harness.call(run_id, backend=backend), Code.BACKEND_ERROR)
    assert "hunter2" not in repr(result)
    assert "redis://" not in repr(result)
    for event in harness.runtime.store.read_run(run_id).unwrap():
        assert b"hunter2" not in event.data


def test_a_backend_refusing_the_request_is_an_invalid_request_with_its_reason(
    harness: Harness,
) -> None:
    backend = Backend(failure=BackendFailure(BackendFailureKind.INVALID_REQUEST, "UNLISTED_COLUMN"))
    result = _failed(harness.call(harness.start(), backend=backend), Code.INVALID_REQUEST)
    assert result.reason == "UNLISTED_COLUMN"


def test_a_hanging_backend_times_out_within_the_limit() -> None:
    harness = make_harness(
        Settings(
            store=StoreSettings(kind="memory"),
            budget=BudgetSettings(call_timeout_seconds=0.2),
        )
    )
    run_id = harness.start()
    released = threading.Event()
    started = time.monotonic()
    try:
        _failed(harness.call(run_id, backend=Backend(hang_until=released)), Code.BACKEND_TIMEOUT)
        assert time.monotonic() - started < 2.0
    finally:
        released.set()
    assert _canonical(harness, run_id).error_code is Code.BACKEND_TIMEOUT


def test_the_backend_timeout_never_reaches_past_the_run_deadline(harness: Harness) -> None:
    run_id = harness.start(RunBudget(deadline_seconds=60))
    harness.clock.advance(timedelta(seconds=59, milliseconds=900))
    released = threading.Event()
    try:
        result = harness.call(run_id, backend=Backend(hang_until=released))
        _failed(result, Code.BACKEND_TIMEOUT)
    finally:
        released.set()


# -- phase 5: raw size ---------------------------------------------------------------------------


def test_raw_over_the_per_call_limit_is_an_error_never_a_truncation(harness: Harness) -> None:
    run_id = harness.start(RunBudget(call_raw_bytes=100))
    backend = Backend(raw='"' + "x" * 200 + '"')
    _failed(harness.call(run_id, backend=backend), Code.RAW_RESPONSE_TOO_LARGE)
    record = _canonical(harness, run_id)
    assert record.status is InvocationStatus.ERROR
    assert record.raw_bytes == 202
    key = PayloadKey(run_id, "call-1", PayloadPart.RAW)
    assert harness.runtime.vault.get_many([key]) == Success((None,))


def test_raw_beyond_what_the_run_has_left_exhausts_the_budget(harness: Harness) -> None:
    run_id = harness.start(RunBudget(raw_bytes=50))
    _failed(harness.call(run_id, backend=Backend(raw='"' + "x" * 60 + '"')), Code.BUDGET_EXHAUSTED)


# -- phase 6: project ----------------------------------------------------------------------------


def test_a_projector_failure_is_a_projection_error(harness: Harness) -> None:
    def refuse(_: str) -> Failure[ProjectionFailure]:
        return Failure(ProjectionFailure("MALFORMED_RAW"))

    _failed(harness.call(harness.start(), projector=refuse), Code.PROJECTION_ERROR)


def test_a_projector_exception_is_a_projection_error_without_its_text(harness: Harness) -> None:
    def explode(_: str) -> Success[ProjectedToolResult]:
        raise KeyError("token=abc123")

    result = _failed(harness.call(harness.start(), projector=explode), Code.PROJECTION_ERROR)
    assert "abc123" not in repr(result)


def test_a_projection_that_is_not_json_is_a_projection_error(harness: Harness) -> None:
    def not_json(_: str) -> Success[ProjectedToolResult]:
        result: dict[str, object] = {"when": object()}
        projected = ProjectedToolResult(result, EvidenceStatus.EVIDENCE_FOUND)  # type: ignore[arg-type]
        return Success(projected)

    _failed(harness.call(harness.start(), projector=not_json), Code.PROJECTION_ERROR)


# -- phase 7: projection size, reservation, READY ------------------------------------------------


def test_a_projection_over_its_limit_is_too_large(harness: Harness) -> None:
    run_id = harness.start(RunBudget(call_projection_bytes=20))
    _failed(harness.call(run_id), Code.PROJECTION_TOO_LARGE)


def test_a_record_over_the_whole_record_limit_is_too_large(harness: Harness) -> None:
    run_id = harness.start(RunBudget(record_bytes=80))
    _failed(harness.call(run_id), Code.PROJECTION_TOO_LARGE)


def test_projection_bytes_beyond_the_run_budget_exhaust_it(harness: Harness) -> None:
    run_id = harness.start(RunBudget(projection_bytes=10))
    _failed(harness.call(run_id), Code.BUDGET_EXHAUSTED)


def test_a_ready_call_has_its_complete_canonical_record(harness: Harness) -> None:
    run_id = harness.start()
    result = harness.call(run_id)
    assert isinstance(result, BoundaryReady)
    assert result.result.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    record = _canonical(harness, run_id)
    assert record.is_citable
    assert record.content is ContentState.AVAILABLE
    assert record.agent_result == {"content": '{"evidence": [{"id": "doc-1"}]}'}
    assert record.raw_response == b'{"evidence": [{"id": "doc-1"}]}'
    assert record.step == 1
    assert (record.request_bytes, record.raw_bytes) == (21, 31)


def test_a_projector_saying_no_evidence_makes_a_ready_negative_record(harness: Harness) -> None:
    def empty(_: str) -> Success[ProjectedToolResult]:
        return Success(ProjectedToolResult({"events": []}, EvidenceStatus.NO_EVIDENCE))

    run_id = harness.start()
    assert isinstance(harness.call(run_id, projector=empty), BoundaryReady)
    record = _canonical(harness, run_id)
    assert (record.status, record.evidence_status) == (
        InvocationStatus.READY,
        EvidenceStatus.NO_EVIDENCE,
    )


def test_a_call_finishing_after_its_run_was_cancelled_ends_as_error(harness: Harness) -> None:
    run_id = harness.start()
    backend = Backend(during=lambda: _ignore(harness.runtime.run_service.cancel(run_id)))
    _failed(harness.call(run_id, backend=backend), Code.RUN_NOT_ACTIVE)
    invocation = harness.log(run_id).invocation("call-1")
    assert isinstance(invocation, Failed)
    assert invocation.error_code is Code.RUN_NOT_ACTIVE


def test_a_call_finishing_after_the_deadline_ends_as_error_and_times_out(
    harness: Harness,
) -> None:
    run_id = harness.start(RunBudget(deadline_seconds=60))
    backend = Backend(during=lambda: harness.clock.advance(timedelta(seconds=61)))
    _failed(harness.call(run_id, backend=backend, isolated=False), Code.RUN_NOT_ACTIVE)
    log = harness.log(run_id)
    assert isinstance(log.invocation("call-1"), Failed)
    assert log.run is not None
    assert log.run.state is RunState.TIMED_OUT


# -- the store -------------------------------------------------------------------------------------


def test_a_store_down_before_the_call_begins_gives_store_error(harness: Harness) -> None:
    run_id = harness.start()
    harness.faults.fail_appends(Fault.UNAVAILABLE)
    backend = Backend()
    _failed(harness.call(run_id, backend=backend), Code.STORE_ERROR)
    assert backend.calls == 0


def test_a_store_down_at_ready_gives_store_error_never_ready(harness: Harness) -> None:
    run_id = harness.start()
    harness.runtime.runs.load(run_id)
    harness.faults.fail_appends(Fault.NOT_SENT)  # begin's first try: retried, then fine
    backend = Backend(during=lambda: harness.faults.fail_appends(*[Fault.UNAVAILABLE] * 3))
    _failed(harness.call(run_id, backend=backend), Code.STORE_ERROR)
    invocation = harness.log(run_id).invocation("call-1")
    assert not isinstance(invocation, Ready)


def test_a_lost_reply_is_retried_with_the_same_command_and_never_decided_twice(
    harness: Harness,
) -> None:
    run_id = harness.start()
    harness.faults.fail_appends(Fault.LOST_REPLY, Fault.LOST_REPLY)
    assert isinstance(harness.call(run_id), BoundaryReady)
    types = [
        event.data.split(b'"type":"')[1].split(b'"')[0]
        for event in harness.runtime.store.read_run(run_id).unwrap()
    ]
    assert types == [
        b"RUN_STARTED", b"TOOL_CALL_RESERVED", b"INVOCATION_BEGAN", b"INVOCATION_READY"
    ]  # fmt: skip


def test_an_outcome_that_stays_unknown_is_a_store_error(harness: Harness) -> None:
    run_id = harness.start()
    harness.faults.fail_appends(*[Fault.NOT_SENT] * 4)
    _failed(harness.call(run_id), Code.STORE_ERROR)


def test_a_cancel_by_another_worker_reaches_a_worker_with_a_cached_run(harness: Harness) -> None:
    run_id = harness.start()
    harness.runtime.runs.load(run_id)  # this worker has the run cached as RUNNING
    other_worker = RunRepository(
        harness.runtime.store, harness.runtime.runs.codec, harness.clock, SequentialIdFactory("w2")
    )
    cancelled = RunService(other_worker, harness.clock, SequentialIdFactory("w2")).cancel(run_id)
    assert not isinstance(cancelled, StoreFailed)
    backend = Backend()
    _refused(harness.call(run_id, backend=backend), Code.RUN_NOT_ACTIVE)
    assert backend.calls == 0


def test_no_event_carries_a_body(harness: Harness) -> None:
    run_id = harness.start()
    backend = Backend(raw='"RAW-BODY-888"')
    harness.call(run_id, arguments='{"query": "REQ-BODY-777"}', backend=backend)
    for event in harness.runtime.store.read_run(run_id).unwrap():
        assert b"REQ-BODY-777" not in event.data
        assert b"RAW-BODY-888" not in event.data


def test_begin_records_the_content_expiry_once(harness: Harness) -> None:
    run_id = harness.start()
    harness.call(run_id)
    stored = harness.runtime.store.read_run(run_id).unwrap()
    decoded = [harness.runtime.runs.codec.decode(e.data, e.hash).unwrap().event for e in stored]
    began = [event for event in decoded if isinstance(event, InvocationBegan)]
    assert len(began) == 1
    assert began[0].content_expires_at == harness.clock.now() + timedelta(hours=2)
    assert not any(isinstance(event, RunEnded) for event in decoded)


def test_store_failed_loading_is_reported_as_a_value(harness: Harness) -> None:
    run_id = harness.start()
    harness.runtime.runs.forget(run_id)
    harness.faults.set_reads_down(True)
    assert isinstance(harness.runtime.runs.load(run_id), StoreFailed)
    _failed(harness.call(run_id), Code.STORE_ERROR)
