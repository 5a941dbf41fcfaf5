"""A transport retry (same run, same tool_call_id, same arguments, after a lost reply) gets the
original observation back: the backend does not run again, nothing is reserved, progress is
untouched. Other arguments under a known id are refused DUPLICATE_TOOL_CALL_ID. On the memory,
SQLite and Redis stores alike."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from factledger.adapters.config.settings import Settings
from factledger.domain.invocation import Projecting
from factledger.domain.json_types import JsonObject
from tests.support.calls import (
    NOTHING,
    CallWorld,
    CountingBackend,
    args,
    call_settings,
    call_world,
    envelope,
    manual_clock,
    store_settings,
)


@pytest.fixture(params=["memory", "sqlite", pytest.param("redis", marks=pytest.mark.integration)])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    kind = request.param
    if kind == "redis":
        store = store_settings(
            "redis",
            redis_url=request.getfixturevalue("redis_url"),
            prefix=request.getfixturevalue("key_prefix"),
        )
    else:
        store = store_settings(kind, path=str(tmp_path / "store.db"))
    return call_settings(store, retry_wait_seconds=0.3)


@pytest.fixture
def world(settings: Settings) -> Iterator[CallWorld]:
    with call_world(settings) as opened:
        yield opened


def _respelled(query: str, *evaluations: tuple[str, str]) -> str:
    """The same envelope with other key order and white space (a client re-serializing)."""
    value = envelope(query, *evaluations)
    return json.dumps(
        {"input": value["input"], "previous_observation": value["previous_observation"]}, indent=2
    )


def test_a_retry_of_a_ready_call_gets_the_original_observation_and_runs_nothing(
    world: CallWorld,
) -> None:
    first = world.call("call-1", args("pool exhausted"))
    assert first["status"] == "READY"
    assert first["evidence_status"] == "EVIDENCE_FOUND"
    events = world.event_types()
    before = world.log()

    again = world.call("call-1", _respelled("pool exhausted"))
    once_more = world.call("call-1", args("pool exhausted"))

    assert again == first
    assert once_more == first
    assert world.backend.searches == 1
    assert world.event_types() == events
    after = world.log()
    assert after.progress == before.progress
    assert after.run is not None
    assert before.run is not None
    assert after.run.usage == before.run.usage
    follow = world.call("call-2", args("deadlock", ("call-1", "GAINED")))
    assert follow["status"] == "READY", "the retry must not have counted as a violation"


def test_other_arguments_under_a_known_id_are_refused_and_change_nothing(
    world: CallWorld,
) -> None:
    world.call("call-1", args("pool exhausted"))
    events = world.event_types()
    refused = world.call("call-1", args("certificate expiry", ("call-1", "GAINED")))
    assert refused == {
        "tool_call_id": "call-1",
        "status": "REFUSED",
        "error_code": "DUPLICATE_TOOL_CALL_ID",
    }
    assert world.event_types() == events
    assert world.backend.searches == 1


def test_a_retry_of_a_failed_call_gets_its_error_again(world: CallWorld) -> None:
    world.backend.fail = True
    first = world.call("call-1", args("pool exhausted"))
    assert first["status"] == "ERROR"
    world.backend.fail = False
    events = world.event_types()
    assert world.call("call-1", args("pool exhausted")) == first
    assert world.backend.searches == 1
    assert world.event_types() == events


def test_a_retry_of_a_recorded_protocol_violation_is_not_a_second_violation(
    world: CallWorld,
) -> None:
    world.call("call-1", args("pool exhausted"))
    refused = world.call("call-2", args("deadlock"))
    assert refused["violation_type"] == "MISSING_EVALUATION"
    for _ in range(3):
        assert world.call("call-2", args("deadlock")) == refused
    log = world.log()
    assert log.progress.violations == 1
    assert log.progress.stop_reason is None
    assert world.call("call-3", args("deadlock", ("call-1", "NO_GAIN")))["status"] == "READY"


def test_a_retry_of_a_duplicate_scope_refusal_gets_the_same_refusal(world: CallWorld) -> None:
    world.call("call-1", args(NOTHING))
    duplicate = world.call("call-2", args(f"  {NOTHING.upper()} "))
    assert duplicate["error_code"] == "DUPLICATE_SCOPE"
    streak = world.log().progress.consecutive_no_gain
    assert world.call("call-2", args(f"  {NOTHING.upper()} ")) == duplicate
    assert world.log().progress.consecutive_no_gain == streak


def test_a_retry_that_arrives_while_the_call_runs_waits_for_its_result(
    settings: Settings,
) -> None:
    hold = threading.Event()
    with call_world(settings, backend=CountingBackend(hold=hold)) as world:
        results: dict[str, JsonObject] = {}

        def original() -> None:
            results["original"] = world.call("call-1", args("pool exhausted"))

        thread = threading.Thread(target=original)
        thread.start()
        assert world.backend.entered.wait(timeout=10)
        waiting = threading.Thread(
            target=lambda: results.update(retry=world.call("call-1", args("pool exhausted")))
        )
        waiting.start()
        hold.set()
        thread.join(timeout=30)
        waiting.join(timeout=30)
        assert results["retry"] == results["original"]
        assert results["original"]["status"] == "READY"
        assert world.backend.searches == 1


def test_a_retry_of_a_call_that_does_not_finish_in_time_runs_nothing(settings: Settings) -> None:
    hold = threading.Event()
    with call_world(settings, backend=CountingBackend(hold=hold)) as world:
        thread = threading.Thread(target=lambda: world.call("call-1", args("pool exhausted")))
        thread.start()
        assert world.backend.entered.wait(timeout=10)
        try:
            retry = world.call("call-1", args("pool exhausted"))
            assert retry == {
                "tool_call_id": "call-1",
                "status": "ERROR",
                "error_code": "CALL_IN_PROGRESS",
            }
            assert isinstance(world.log().invocation("call-1"), Projecting)
            assert world.backend.searches == 1
        finally:
            hold.set()
            thread.join(timeout=30)


def test_a_retry_after_the_result_expired_says_so_and_runs_nothing() -> None:
    clock = manual_clock()
    settings = call_settings(store_settings("memory"))
    with call_world(settings, clock=clock) as world:
        world.call("call-1", args("pool exhausted"))
        clock.advance(timedelta(seconds=settings.vault.ttl_seconds + 1))
        retry = world.call("call-1", args("pool exhausted"))
        assert retry == {
            "tool_call_id": "call-1",
            "status": "ERROR",
            "error_code": "RESULT_EXPIRED",
        }
        assert world.backend.searches == 1


def test_an_invalid_envelope_under_a_known_id_is_refused_as_invalid(world: CallWorld) -> None:
    world.call("call-1", args("pool exhausted"))
    refused = world.call("call-1", '{"input": {"query": "x"}, "extra": 1}')
    assert refused["error_code"] == "INVALID_ENVELOPE"
    assert world.backend.searches == 1
