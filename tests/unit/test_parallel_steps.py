"""Parallel tool calls: the calls of one model step are admitted together; the next step must
evaluate every pending result of the steps before it (a list of evaluations, or the single
object when one result awaits); violations inside a batch each get their repair answer but
count once toward the violation limit. Calls without a step keep the sequential protocol."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from factledger.domain.json_types import JsonObject
from tests.support.calls import (
    NOTHING,
    CallWorld,
    CountingBackend,
    args,
    call_settings,
    call_world,
    store_settings,
)


@pytest.fixture
def world() -> Iterator[CallWorld]:
    with call_world(call_settings(store_settings("memory"))) as opened:
        yield opened


def _ready(observation: JsonObject) -> None:
    assert observation["status"] == "READY", observation


def test_the_calls_of_one_step_never_need_to_evaluate_each_other(world: CallWorld) -> None:
    for index in range(1, 4):
        _ready(world.call(f"a{index}", args(f"topic {index}"), step=1))
    assert world.log().progress.pending == ("a1", "a2", "a3")
    assert world.log().progress.violations == 0


def test_the_next_step_evaluates_every_pending_result_of_the_step_before(
    world: CallWorld,
) -> None:
    _ready(world.call("a1", args("pool exhausted"), step=1))
    _ready(world.call("a2", args("deadlock"), step=1))
    evaluations = (("a1", "GAINED"), ("a2", "NO_GAIN"))
    _ready(world.call("b1", args("retry storm", *evaluations), step=2))
    # a sibling repeating the same list is accepted: both are already evaluated
    _ready(world.call("b2", args("gateway timeout", *reversed(evaluations)), step=2))
    progress = world.log().progress
    assert progress.pending == ("b1", "b2")
    assert progress.evaluations["a1"].value == "GAINED"
    assert progress.evaluations["a2"].value == "NO_GAIN"
    assert progress.violations == 0


def test_a_step_that_evaluates_only_part_of_what_awaits_is_told_every_id(
    world: CallWorld,
) -> None:
    _ready(world.call("a1", args("pool exhausted"), step=1))
    _ready(world.call("a2", args("deadlock"), step=1))
    refused = world.call("b1", args("retry storm", ("a1", "GAINED"), as_list=True), step=2)
    assert refused["error_code"] == "PROTOCOL_VIOLATION"
    assert refused["violation_type"] == "MISSING_EVALUATION"
    assert refused["expected_tool_call_id"] == "a2"
    assert refused["expected_tool_call_ids"] == ["a2"]
    assert "a2" in str(refused["instruction"])


def test_violations_inside_a_batch_each_get_a_repair_answer_but_count_once(
    world: CallWorld,
) -> None:
    _ready(world.call("a1", args("pool exhausted"), step=1))
    _ready(world.call("a2", args("deadlock"), step=1))
    answers = [world.call(f"b{index}", args(f"topic {index}"), step=2) for index in range(3)]
    for answer in answers:
        assert answer["error_code"] == "PROTOCOL_VIOLATION"
        assert answer["repair_required"] is True
        assert answer["expected_tool_call_ids"] == ["a1", "a2"]
        assert "stop_required" not in answer
    progress = world.log().progress
    assert progress.violations == 1
    assert progress.stop_reason is None
    # a second batch that violates again reaches the limit of two
    stopped = world.call("c1", args("topic c"), step=3)
    assert stopped["stop_required"] is True
    assert stopped["stop_reason"] == "PROGRESS_PROTOCOL_VIOLATED"


def test_the_single_evaluation_object_is_still_valid(world: CallWorld) -> None:
    _ready(world.call("a1", args("pool exhausted"), step=1))
    _ready(world.call("b1", args("deadlock", ("a1", "GAINED")), step=2))
    _ready(world.call("c1", args("retry storm", ("b1", "NO_GAIN")), step=3))


def test_calls_without_a_step_keep_the_sequential_protocol(world: CallWorld) -> None:
    _ready(world.call("a1", args("pool exhausted")))
    refused = world.call("a2", args("deadlock"))
    assert refused["violation_type"] == "MISSING_EVALUATION"
    assert "expected_tool_call_ids" not in refused
    assert world.log().progress.violations == 1


def test_a_call_naming_a_step_before_the_latest_is_a_violation(world: CallWorld) -> None:
    _ready(world.call("a1", args(NOTHING), step=3))
    refused = world.call("a2", args("deadlock"), step=2)
    assert refused["error_code"] == "PROTOCOL_VIOLATION"
    assert refused["violation_type"] == "STALE_STEP"
    assert world.backend.searches == 1


def test_a_result_that_arrives_after_the_next_step_began_is_owed_by_the_step_after(
    world: CallWorld,
) -> None:
    hold = threading.Event()
    world.backend.hold = hold
    late: dict[str, JsonObject] = {}
    thread = threading.Thread(target=lambda: late.update(a2=world.call("a2", args("late"), step=1)))
    thread.start()
    assert world.backend.entered.wait(timeout=10)
    world.backend.hold = None
    _ready(world.call("a1", args("pool exhausted"), step=1))
    _ready(world.call("b1", args("deadlock", ("a1", "GAINED")), step=2))
    hold.set()
    thread.join(timeout=30)
    _ready(late["a2"])
    refused = world.call("c1", args("retry storm", ("b1", "GAINED")), step=3)
    assert refused["expected_tool_call_ids"] == ["a2"]
    _ready(world.call("c2", args("retry storm", ("b1", "GAINED"), ("a2", "NO_GAIN")), step=3))


def test_the_same_scope_twice_in_one_step_runs_once() -> None:
    hold = threading.Event()
    settings = call_settings(store_settings("memory"))
    with call_world(settings, backend=CountingBackend(hold=hold)) as world:
        first: dict[str, JsonObject] = {}
        thread = threading.Thread(
            target=lambda: first.update(a1=world.call("a1", args("pool exhausted"), step=1))
        )
        thread.start()
        assert world.backend.entered.wait(timeout=10)
        duplicate = world.call("a2", args("  POOL exhausted"), step=1)
        hold.set()
        thread.join(timeout=30)
        _ready(first["a1"])
        assert duplicate["error_code"] == "DUPLICATE_SCOPE"
        assert world.backend.searches == 1


def test_a_list_naming_one_call_twice_is_an_invalid_envelope(world: CallWorld) -> None:
    _ready(world.call("a1", args("pool exhausted"), step=1))
    refused = world.call("b1", args("x", ("a1", "GAINED"), ("a1", "NO_GAIN")), step=2)
    assert refused["error_code"] == "INVALID_ENVELOPE"
    assert world.backend.searches == 1


def test_an_empty_list_is_the_same_as_no_evaluation(world: CallWorld) -> None:
    _ready(world.call("a1", args("pool exhausted", as_list=True), step=1))
    refused = world.call("b1", args("deadlock", as_list=True), step=2)
    assert refused["violation_type"] == "MISSING_EVALUATION"
