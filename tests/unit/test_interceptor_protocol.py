"""A scripted sequence of calls through the interceptor gives exactly the observations and
progress events the interceptor and the progress protocol promise, on the embedded store and
on Redis alike."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from factledger.adapters.config.settings import Settings
from tests.support.interceptor import Session, knowledge_args, session


@pytest.fixture
def run(store_settings: Settings) -> Iterator[Session]:
    with session(store_settings) as opened:
        yield opened


def test_the_scripted_protocol_sequence(run: Session) -> None:
    first = run.call("call-1", knowledge_args("GW-504 pool exhausted"))
    assert first["status"] == "READY"
    assert first["evidence_status"] == "EVIDENCE_FOUND"
    assert first["scope"] == {"query": "GW-504 pool exhausted"}
    assert first["relevance_level"] in {"HIGH", "MEDIUM", "REFERENCE"}
    assert first["evidence"]
    assert "stop_required" not in first

    missing = run.call("call-2", knowledge_args("certificate expiry"))
    assert missing == {
        "tool_call_id": "call-2",
        "status": "REFUSED",
        "error_code": "PROTOCOL_VIOLATION",
        "repair_required": True,
        "violation_type": "MISSING_EVALUATION",
        "expected_tool_call_id": "call-1",
        "instruction": missing["instruction"],
    }
    assert "call-1" in str(missing["instruction"])

    second = run.call("call-3", knowledge_args("certificate expiry", ("call-1", "GAINED")))
    assert second["status"] == "READY"
    assert second["evidence_status"] == "EVIDENCE_FOUND"

    duplicate = run.call(
        "call-4", knowledge_args("  gw-504   POOL  exhausted ", ("call-3", "NO_GAIN"))
    )
    assert duplicate == {
        "tool_call_id": "call-4",
        "status": "REFUSED",
        "error_code": "DUPLICATE_SCOPE",
        "checked_scope": {"query": "  gw-504   POOL  exhausted "},
    }

    empty = run.call("call-5", knowledge_args("zzqx vvwk nonexistentterm"))
    assert empty["status"] == "READY"
    assert empty["evidence_status"] == "NO_EVIDENCE"
    assert empty["evidence"] == []
    assert empty["stop_required"] is True
    assert empty["stop_reason"] == "INFORMATION_SATURATED"

    after = run.call("call-6", knowledge_args("retry storm"))
    assert after == {
        "tool_call_id": "call-6",
        "status": "REFUSED",
        "error_code": "STOP_REQUIRED",
        "stop_required": True,
        "stop_reason": "INFORMATION_SATURATED",
    }

    assert run.event_types() == [
        "RUN_STARTED",
        "TOOL_CALL_RESERVED", "INVOCATION_BEGAN", "INVOCATION_READY", "CALL_OUTCOME_RECORDED",
        "PROTOCOL_VIOLATION_RECORDED",
        "OBSERVATION_EVALUATED", "TOOL_CALL_RESERVED", "INVOCATION_BEGAN",
        "INVOCATION_READY", "CALL_OUTCOME_RECORDED",
        "OBSERVATION_EVALUATED", "DUPLICATE_SCOPE_RECORDED",
        "TOOL_CALL_RESERVED", "INVOCATION_BEGAN", "INVOCATION_READY",
        "CALL_OUTCOME_RECORDED", "COLLECTION_STOPPED",
    ]  # fmt: skip


def test_repeated_protocol_violations_stop_collection(run: Session) -> None:
    run.call("call-1", knowledge_args("GW-504 pool exhausted"))
    first = run.call("call-2", knowledge_args("deadlock"))
    assert first["error_code"] == "PROTOCOL_VIOLATION"
    assert "stop_required" not in first
    second = run.call("call-3", knowledge_args("deadlock", ("call-9", "GAINED")))
    assert second["error_code"] == "PROTOCOL_VIOLATION"
    assert second["violation_type"] == "WRONG_OBSERVATION"
    assert second["stop_required"] is True
    assert second["stop_reason"] == "PROGRESS_PROTOCOL_VIOLATED"
    later = run.call("call-4", knowledge_args("deadlock", ("call-1", "GAINED")))
    assert later["error_code"] == "STOP_REQUIRED"


def test_an_evaluation_of_a_call_that_never_ran_is_a_violation(run: Session) -> None:
    observation = run.call("call-1", knowledge_args("deadlock", ("ghost-call", "GAINED")))
    assert observation["error_code"] == "PROTOCOL_VIOLATION"
    assert observation["violation_type"] == "UNKNOWN_OBSERVATION"
    assert observation["expected_tool_call_id"] is None


def test_an_evaluation_of_a_finished_call_is_accepted_when_nothing_is_pending(
    run: Session,
) -> None:
    run.call("call-1", knowledge_args("zzqx nothing matches this"))
    observation = run.call("call-2", knowledge_args("deadlock", ("call-1", "NO_GAIN")))
    assert observation["status"] == "READY"
