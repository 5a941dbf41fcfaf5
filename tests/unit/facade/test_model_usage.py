"""A host's model usage is metered against the run's budgets exactly as the built-in agent
loop's own calls are: each call one reservation, the refusal ending the run the same way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factledger import (
    AsyncHarness,
    FailureCode,
    HarnessError,
    HarnessErrorCode,
    ReleaseOutcome,
    RunState,
)
from factledger.adapters.models.transcript import TranscriptModel, load_transcript
from factledger.adapters.system import SystemClock
from factledger.application.agent_loop import AgentLoop
from factledger.ports.model_client import ModelToolCall, ModelTurn, TurnRequest
from tests.unit.facade.conftest import LOOKUP, demo, start


def test_usage_within_the_budget_is_counted_in_the_run(tmp_path: Path) -> None:
    with demo(tmp_path, model_calls=5, model_tokens=1000) as harness:
        run_id = start(harness)
        usage = harness.record_model_usage(run_id, 2, 100, 20)
        assert (usage.accepted_calls, usage.model_calls, usage.model_tokens) == (2, 2, 120)
        assert (usage.remaining_model_calls, usage.remaining_model_tokens) == (3, 880)
        assert not usage.stopped
        assert usage.refused_by is None
        summary = harness.run_summary(run_id)
        assert (summary.model_calls, summary.model_tokens) == (2, 120)


def test_a_call_over_the_model_call_budget_ends_the_run_as_budget_exhausted(
    tmp_path: Path,
) -> None:
    with demo(tmp_path, model_calls=2) as harness:
        run_id = start(harness)
        assert harness.observe(run_id, "c1", "lookup_knowledge", LOOKUP).is_ready
        usage = harness.record_model_usage(run_id, 3, 10, 10)
        assert usage.accepted_calls == 2
        assert usage.refused_by is FailureCode.BUDGET_EXHAUSTED
        assert usage.state is RunState.BUDGET_EXHAUSTED
        assert usage.stopped
        later = harness.observe(run_id, "c2", "lookup_knowledge", LOOKUP.replace("GW", "pool"))
        assert later.error_code == "RUN_NOT_ACTIVE"
        release = harness.release(run_id, None)
        assert release.run_state is RunState.BUDGET_EXHAUSTED
        assert release.outcome is ReleaseOutcome.FALLBACK  # it has a verified fact


def test_tokens_past_the_budget_are_kept_and_refuse_the_next_call(tmp_path: Path) -> None:
    with demo(tmp_path, model_tokens=100) as harness:
        run_id = start(harness)
        first = harness.record_model_usage(run_id, 1, 90, 40)
        assert first.model_tokens == 130
        assert not first.stopped
        second = harness.record_model_usage(run_id, 1, 5, 5)
        assert second.accepted_calls == 0
        assert second.stopped
        assert second.state is RunState.BUDGET_EXHAUSTED
        assert second.model_tokens == 140
        assert harness.release(run_id, None).outcome is ReleaseOutcome.FAILED  # no facts


def test_usage_reported_after_the_run_ended_is_recorded_and_refused(tmp_path: Path) -> None:
    with demo(tmp_path) as harness:
        run_id = start(harness)
        harness.cancel(run_id)
        usage = harness.record_model_usage(run_id, 1, 7, 3)
        assert usage.accepted_calls == 0
        assert usage.state is RunState.CANCELLED
        assert usage.refused_by is FailureCode.RUN_CANCELLED
        assert usage.model_tokens == 10


@pytest.mark.parametrize(("calls", "tokens"), [(-1, 0), (0, -5), (True, 0)])
def test_negative_or_non_integer_usage_is_invalid_input(
    tmp_path: Path, calls: int, tokens: int
) -> None:
    with demo(tmp_path) as harness:
        run_id = start(harness)
        with pytest.raises(HarnessError) as raised:
            harness.record_model_usage(run_id, calls, tokens, 0)
        assert raised.value.code is HarnessErrorCode.INVALID_INPUT


class _Talker:
    """A model that calls a tool the harness does not have every turn (refused, so nothing
    stops it but its budget) and bills 10 tokens a turn."""

    uses_model = True
    replays = False

    def __init__(self) -> None:
        self.turns = 0

    def next_turn(self, request: TurnRequest) -> ModelTurn:
        self.turns += 1
        arguments = json.dumps({"previous_observation": None, "input": {"query": f"q{self.turns}"}})
        call = ModelToolCall(f"t{self.turns}", "not_a_tool", arguments)
        return ModelTurn(content=None, tool_calls=(call,), prompt_tokens=6, completion_tokens=4)


def test_a_host_reporting_its_turns_hits_the_same_stop_as_the_built_in_loop(
    tmp_path: Path,
) -> None:
    with demo(tmp_path / "loop", model_calls=3) as harness:
        run_id = start(harness)
        AgentLoop(harness, SystemClock()).run(_Talker(), run_id, "why?")
        by_loop = harness.run_summary(run_id)
    with demo(tmp_path / "host", model_calls=3) as harness:
        run_id = start(harness)
        for turn in range(1, 10):
            if harness.record_model_usage(run_id, 1, 6, 4, step=turn).stopped:
                break
        by_host = harness.run_summary(run_id)
    assert by_loop.state is by_host.state is RunState.BUDGET_EXHAUSTED
    assert by_loop.model_calls == by_host.model_calls == 3
    # The loop is refused before its fourth call; a host reports it after making it.
    assert (by_loop.model_tokens, by_host.model_tokens) == (30, 40)


def test_the_async_facade_meters_the_same_way(tmp_path: Path) -> None:
    import asyncio

    async def scenario() -> tuple[int, RunState]:
        async with AsyncHarness(demo(tmp_path, model_calls=1)) as harness:
            run_id = await harness.start_run(question="q", service="card-gateway")
            usage = await harness.record_model_usage(run_id, 2, 1, 1)
            return usage.accepted_calls, usage.state

    assert asyncio.run(scenario()) == (1, RunState.BUDGET_EXHAUSTED)


def test_a_recorded_transcript_still_replays_through_the_metered_loop(tmp_path: Path) -> None:
    from factledger.adapters.demo.incident import transcript_path

    with demo(tmp_path) as harness:
        transcript = load_transcript(transcript_path("honest"))
        run_id = start(harness)
        model = TranscriptModel(transcript)
        result = AgentLoop(harness, SystemClock()).run(model, run_id, transcript.question)
        assert result.release.outcome is ReleaseOutcome.SUCCESS
