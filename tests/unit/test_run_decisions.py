"""The Run and Invocation aggregates decide; every refusal is a value with a stable code."""

from __future__ import annotations

from datetime import timedelta

import pytest
from returns.result import Failure, Success

from factledger.domain.budget import BudgetName, RunBudget
from factledger.domain.error_codes import ToolBoundaryErrorCode as Code
from factledger.domain.invocation import Failed, Projecting, Ready
from factledger.domain.run_commands import (
    CompleteInvocation,
    EndRun,
    FailInvocation,
    RecordModelUsage,
    ReserveModelCall,
    StartRun,
)
from factledger.domain.run_decisions import (
    decide_begin_tool_call,
    decide_complete_invocation,
    decide_end_run,
    decide_fail_invocation,
    decide_record_model_usage,
    decide_reserve_model_call,
    decide_start_run,
    projection_size_error,
    raw_size_error,
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
    boundary_code,
)
from factledger.domain.run_events import DiagnosisContext, ModelCallPurpose, ToolGrant
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus, FailureCode, RunState
from tests.support.runs import RUN, T0, begin, record, started_log


def _refusal(decision: object) -> RunError:
    assert isinstance(decision, Failure), decision
    error: RunError = decision.failure()
    return error


def _complete(
    tool_call_id: str = "call-1", raw: int = 10, projection: int = 10
) -> CompleteInvocation:
    return CompleteInvocation(
        tool_call_id=tool_call_id,
        evidence_status=EvidenceStatus.EVIDENCE_FOUND,
        raw_bytes=raw,
        raw_digest="a" * 64,
        projection_bytes=projection,
        result_digest="b" * 64,
        truncated=False,
        now=T0,
    )


def _begun(log: RunLog, tool_call_id: str = "call-1") -> RunLog:
    decision = decide_begin_tool_call(log, begin(tool_call_id))
    assert isinstance(decision, Success)
    return record(log, decision.unwrap())


def test_a_run_starts_once_with_a_deadline_from_its_budget() -> None:
    command = StartRun(RUN, RunBudget(deadline_seconds=60), (), DiagnosisContext(), T0)
    decision = decide_start_run(RunLog(RUN), command)
    assert isinstance(decision, Success)
    log = record(RunLog(RUN), decision.unwrap())
    assert log.run is not None
    assert log.run.state is RunState.RUNNING
    assert log.run.deadline == T0 + timedelta(seconds=60)
    assert _refusal(decide_start_run(log, command)) == AlreadyStarted(RUN)


@pytest.mark.parametrize("run_id", ["", "a b", "x" * 65, "run/1", "run:1"])
def test_a_run_id_outside_the_safe_alphabet_is_refused(run_id: str) -> None:
    command = StartRun(run_id, RunBudget(), (), DiagnosisContext(), T0)
    assert _refusal(decide_start_run(RunLog(run_id), command)) == InvalidRunId()


def test_a_call_in_a_run_that_never_started_is_refused() -> None:
    assert _refusal(decide_begin_tool_call(RunLog(RUN), begin())) == RunNotStarted(RUN)


def test_beginning_a_call_reserves_it_and_makes_it_projecting() -> None:
    log = _begun(started_log())
    assert isinstance(log.invocation("call-1"), Projecting)
    assert log.run is not None
    assert log.run.usage.tool_calls == 1
    assert log.run.usage.request_bytes == len(b'{"query": "timeouts"}')


def test_a_call_after_the_run_ended_is_not_active() -> None:
    log = started_log()
    ended = decide_end_run(log, EndRun(RunState.CANCELLED, FailureCode.RUN_CANCELLED))
    assert isinstance(ended, Success)
    log = record(log, ended.unwrap())
    assert _refusal(decide_begin_tool_call(log, begin())) == RunNotActive(RunState.CANCELLED)


def test_a_call_past_the_deadline_asks_for_a_time_out() -> None:
    log = started_log(RunBudget(deadline_seconds=10))
    late = begin(at=T0 + timedelta(seconds=10))
    assert _refusal(decide_begin_tool_call(log, late)) == DeadlinePassed()


def test_an_envelope_naming_another_run_is_a_mismatch() -> None:
    assert _refusal(decide_begin_tool_call(started_log(), begin(run_id="run-2"))) == RunMismatch()


@pytest.mark.parametrize("tool_call_id", ["", "a b", "x" * 129, "call/1", "call\n1", "é"])
def test_a_malformed_tool_call_id_is_refused(tool_call_id: str) -> None:
    decision = decide_begin_tool_call(started_log(), begin(tool_call_id))
    assert _refusal(decision) == InvalidToolCallId()


def test_a_tool_call_id_of_128_allowed_characters_is_accepted() -> None:
    decision = decide_begin_tool_call(started_log(), begin("a.b:c-d_" * 16))
    assert isinstance(decision, Success)


def test_a_tool_call_id_used_before_in_the_run_is_a_duplicate() -> None:
    log = _begun(started_log())
    assert _refusal(decide_begin_tool_call(log, begin())) == DuplicateToolCallId("call-1")


def test_a_tool_not_granted_to_the_run_is_not_authorized() -> None:
    decision = decide_begin_tool_call(started_log(), begin(tool_name="query_sql"))
    assert _refusal(decision) == ToolNotAuthorized("query_sql")


def test_an_envelope_without_authorization_is_not_authorized() -> None:
    decision = decide_begin_tool_call(started_log(), begin(authorized=False))
    assert _refusal(decision) == ToolNotAuthorized("lookup_knowledge")


def test_a_tool_granted_without_read_only_is_refused() -> None:
    decision = decide_begin_tool_call(started_log(), begin(tool_name="writer"))
    assert _refusal(decision) == ToolNotReadOnly("writer")


def test_an_envelope_not_declared_read_only_is_refused() -> None:
    decision = decide_begin_tool_call(started_log(), begin(read_only=False))
    assert _refusal(decision) == ToolNotReadOnly("lookup_knowledge")


@pytest.mark.parametrize("arguments", ["", "{", '{"a": 1} {"b": 2}', '{"a": 1} x', "nope"])
def test_arguments_that_are_not_one_json_value_are_invalid(arguments: str) -> None:
    decision = decide_begin_tool_call(started_log(), begin(arguments=arguments))
    assert _refusal(decision) == InvalidRequest()


def test_deeply_nested_arguments_are_invalid_not_a_crash() -> None:
    decision = decide_begin_tool_call(started_log(), begin(arguments="[" * 100_000))
    assert _refusal(decision) == InvalidRequest()


def test_arguments_larger_than_the_whole_request_budget_are_too_large() -> None:
    log = started_log(RunBudget(request_bytes=16))
    decision = decide_begin_tool_call(log, begin(arguments='"' + "x" * 20 + '"'))
    assert _refusal(decision) == RequestTooLarge(22)


def test_arguments_larger_than_a_whole_record_are_too_large() -> None:
    log = started_log(RunBudget(record_bytes=8))
    assert isinstance(_refusal(decide_begin_tool_call(log, begin())), RequestTooLarge)


def test_the_tool_call_budget_is_never_overspent() -> None:
    log = started_log(RunBudget(tool_calls=2))
    log = _begun(_begun(log, "a"), "b")
    decision = decide_begin_tool_call(log, begin("c"))
    assert _refusal(decision) == BudgetExhausted(BudgetName.TOOL_CALLS)


def test_request_bytes_that_no_longer_fit_exhaust_the_budget() -> None:
    size = len(b'{"query": "timeouts"}')
    log = _begun(started_log(RunBudget(request_bytes=size + 5)), "a")
    assert _refusal(decide_begin_tool_call(log, begin("b"))) == BudgetExhausted(
        BudgetName.REQUEST_BYTES
    )


def test_completion_makes_the_call_ready_and_draws_raw_and_projection_bytes() -> None:
    log = _begun(started_log())
    decision = decide_complete_invocation(log, _complete(raw=100, projection=40))
    assert isinstance(decision, Success)
    log = record(log, decision.unwrap())
    invocation = log.invocation("call-1")
    assert isinstance(invocation, Ready)
    assert invocation.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    assert log.run is not None
    assert (log.run.usage.raw_bytes, log.run.usage.projection_bytes) == (100, 40)


def test_completion_after_the_run_was_cancelled_is_refused() -> None:
    log = _begun(started_log())
    ended = decide_end_run(log, EndRun(RunState.CANCELLED, FailureCode.RUN_CANCELLED))
    assert isinstance(ended, Success)
    log = record(log, ended.unwrap())
    assert _refusal(decide_complete_invocation(log, _complete())) == RunNotActive(
        RunState.CANCELLED
    )


def test_completion_past_the_deadline_asks_for_a_time_out() -> None:
    log = _begun(started_log(RunBudget(deadline_seconds=5)))
    late = CompleteInvocation(
        "call-1", EvidenceStatus.NO_EVIDENCE, 1, "a" * 64, 1, "b" * 64, False,
        T0 + timedelta(seconds=6),
    )  # fmt: skip
    assert _refusal(decide_complete_invocation(log, late)) == DeadlinePassed()


def test_completion_beyond_the_raw_budget_is_refused() -> None:
    log = _begun(started_log(RunBudget(raw_bytes=50)))
    decision = decide_complete_invocation(log, _complete(raw=51))
    assert _refusal(decision) == BudgetExhausted(BudgetName.RAW_BYTES)


def test_completion_beyond_the_projection_budget_is_refused() -> None:
    log = _begun(started_log(RunBudget(projection_bytes=50)))
    decision = decide_complete_invocation(log, _complete(projection=51))
    assert _refusal(decision) == BudgetExhausted(BudgetName.PROJECTION_BYTES)


def test_nothing_leaves_ready_or_error() -> None:
    log = _begun(started_log())
    ready = decide_complete_invocation(log, _complete())
    assert isinstance(ready, Success)
    log = record(log, ready.unwrap())
    fail = FailInvocation("call-1", Code.BACKEND_ERROR, None, None)
    assert _refusal(decide_fail_invocation(log, fail)) == InvocationNotProjecting("call-1")
    assert _refusal(decide_complete_invocation(log, _complete())) == InvocationNotProjecting(
        "call-1"
    )


def test_a_begun_call_may_fail_even_in_a_terminal_run() -> None:
    log = _begun(started_log())
    ended = decide_end_run(log, EndRun(RunState.CANCELLED, FailureCode.RUN_CANCELLED))
    assert isinstance(ended, Success)
    log = record(log, ended.unwrap())
    fail = FailInvocation("call-1", Code.RUN_NOT_ACTIVE, None, 12)
    decision = decide_fail_invocation(log, fail)
    assert isinstance(decision, Success)
    invocation = record(log, decision.unwrap()).invocation("call-1")
    assert isinstance(invocation, Failed)
    assert invocation.evidence_status is EvidenceStatus.ERROR


def test_a_run_ends_once_and_a_second_completion_is_refused() -> None:
    log = started_log()
    first = decide_end_run(log, EndRun(RunState.SUCCESS, None))
    assert isinstance(first, Success)
    log = record(log, first.unwrap())
    second = decide_end_run(log, EndRun(RunState.FAILED, FailureCode.INTERNAL_FAILURE))
    assert _refusal(second) == RunNotActive(RunState.SUCCESS)


def test_ending_a_run_in_running_cannot_even_be_asked() -> None:
    with pytest.raises(ValueError, match="terminal"):
        EndRun(RunState.RUNNING, None)


def test_model_calls_are_metered_and_refused_past_the_budget() -> None:
    log = started_log(RunBudget(model_calls=1))
    first = decide_reserve_model_call(log, ReserveModelCall(ModelCallPurpose.AGENT_TURN, 1, T0))
    assert isinstance(first, Success)
    log = record(log, first.unwrap())
    second = decide_reserve_model_call(log, ReserveModelCall(ModelCallPurpose.AGENT_TURN, 2, T0))
    assert _refusal(second) == BudgetExhausted(BudgetName.MODEL_CALLS)


def test_model_tokens_past_the_budget_refuse_the_next_model_call() -> None:
    log = started_log(RunBudget(model_tokens=100))
    usage = decide_record_model_usage(log, RecordModelUsage(ModelCallPurpose.AGENT_TURN, 80, 30))
    assert isinstance(usage, Success)
    log = record(log, usage.unwrap())
    assert log.run is not None
    assert log.run.usage.model_tokens == 110
    decision = decide_reserve_model_call(
        log, ReserveModelCall(ModelCallPurpose.EVIDENCE_REPAIR, None, T0)
    )
    assert _refusal(decision) == BudgetExhausted(BudgetName.MODEL_TOKENS)


def test_raw_over_the_per_call_limit_is_an_error_never_a_truncation() -> None:
    budget = RunBudget(call_raw_bytes=100, record_bytes=1000)
    assert raw_size_error(budget, 10, 100) is None
    assert raw_size_error(budget, 10, 101) is Code.RAW_RESPONSE_TOO_LARGE
    assert raw_size_error(RunBudget(record_bytes=50), 10, 41) is Code.RAW_RESPONSE_TOO_LARGE


def test_a_projection_over_its_limit_or_the_record_limit_is_too_large() -> None:
    budget = RunBudget(call_projection_bytes=100, record_bytes=1000)
    assert projection_size_error(budget, 10, 10, 100) is None
    assert projection_size_error(budget, 10, 10, 101) is Code.PROJECTION_TOO_LARGE
    assert projection_size_error(budget, 400, 500, 101) is Code.PROJECTION_TOO_LARGE


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (RunNotStarted(RUN), Code.RUN_NOT_ACTIVE),
        (RunNotActive(RunState.CANCELLED), Code.RUN_NOT_ACTIVE),
        (DeadlinePassed(), Code.RUN_NOT_ACTIVE),
        (RunMismatch(), Code.RUN_MISMATCH),
        (InvalidToolCallId(), Code.INVALID_TOOL_CALL_ID),
        (DuplicateToolCallId("x"), Code.DUPLICATE_TOOL_CALL_ID),
        (ToolNotAuthorized("t"), Code.TOOL_NOT_AUTHORIZED),
        (ToolNotReadOnly("t"), Code.TOOL_NOT_READ_ONLY),
        (InvalidRequest(), Code.INVALID_REQUEST),
        (RequestTooLarge(1), Code.REQUEST_TOO_LARGE),
        (BudgetExhausted(BudgetName.TOOL_CALLS), Code.BUDGET_EXHAUSTED),
    ],
)
def test_every_refusal_maps_to_its_stable_code(error: RunError, code: Code) -> None:
    assert boundary_code(error) is code


def test_granted_tools_keep_their_read_only_declaration() -> None:
    log = started_log(tools=(ToolGrant("a", True), ToolGrant("b", False)))
    assert log.run is not None
    assert dict(log.run.tools) == {"a": True, "b": False}
