"""The built-in agent loop: drive any ``ModelClient`` through the harness, then release.

Each turn is a metered model call (when the model is one) within the run's deadline. Tool
calls go through the interceptor and the boundary like any transport's; the observation is
what the model sees next. The tool calls of one model turn are one agent step (the turn's
number): they are admitted together, and the next turn evaluates every result among them
that found evidence. The loop stops on a draft, on ``stop_required``, on budget or
deadline, on cancellation, or when the model gives nothing more — then it releases. A
recording (``replays``) is replayed turn by turn as recorded, even after a stop: the harness
refuses those calls as it would a live model's.
"""

from __future__ import annotations

import json
from datetime import datetime

from attrs import frozen

from factledger.application.harness import Harness
from factledger.application.run_repository import Committed, StoreFailed
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.run_errors import BudgetExhausted, DeadlinePassed
from factledger.domain.run_events import ModelCallPurpose
from factledger.domain.status import FailureCode, RunState
from factledger.ports.clock import Clock
from factledger.ports.draft_repair import DraftRepairer
from factledger.ports.model_client import (
    CancelRequested,
    ModelClient,
    ModelTurn,
    ModelUnavailable,
    TurnRequest,
)

__all__ = ["AgentLoop", "LoopResult", "SYSTEM_PROMPT"]

SYSTEM_PROMPT = (
    "You are an on-call diagnosis agent. Gather evidence only with the tools; you may call "
    "several at once. After results with evidence_status EVIDENCE_FOUND, every tool call of "
    "your next turn must carry previous_observation naming each of those tool_call_ids with "
    "evaluation GAINED or NO_GAIN (one object, or a list of them); calls of the same turn never "
    "evaluate each other. When you are done, answer "
    'with only a JSON draft: {"conclusion": str, "analyses": [{"kind": '
    '"SUPPORTING_EVIDENCE" | "NEGATIVE_OBSERVATION", "claim": str, "tool_call_ids": '
    "[str]}]}. Cite only tool_call_ids of results you received; a NEGATIVE_OBSERVATION cites "
    "results with NO_EVIDENCE and only says nothing matched in that scope."
)


@frozen
class LoopResult:
    """What one run of the loop produced."""

    run_id: str
    """The run."""
    observations: tuple[tuple[str, JsonObject], ...]
    """Every tool call's id and the observation the model received, in order."""
    release: JsonObject
    """The release result."""

    def to_json(self) -> JsonObject:
        """``{"run_id", "observations": [{"tool_call_id", "observation"}], "release"}``."""
        return {
            "run_id": self.run_id,
            "observations": [
                {"tool_call_id": tool_call_id, "observation": observation}
                for tool_call_id, observation in self.observations
            ],
            "release": self.release,
        }


class AgentLoop:
    """Runs a model against one run of a harness."""

    def __init__(self, harness: Harness, clock: Clock, *, max_turns: int = 40) -> None:
        self._harness = harness
        self._clock = clock
        self._max_turns = max_turns

    def run(
        self,
        model: ModelClient,
        run_id: str,
        question: str,
        *,
        repairer: DraftRepairer | None = None,
    ) -> LoopResult:
        """Drive the model until it stops, then release once."""
        summary = self._harness.run_summary(run_id)
        messages: list[JsonObject] = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": _briefing(question, summary)},
        ]
        tools = tuple(self._harness.tool_definitions(run_id))
        observations: list[tuple[str, JsonObject]] = []
        draft: str | None = None
        stopped = False
        for step in range(1, self._max_turns + 1):
            if not self._may_continue(run_id):
                break
            if model.uses_model and not self._meter(run_id, step):
                break
            reply = model.next_turn(TurnRequest(tuple(messages), tools, self._time_left(run_id)))
            if isinstance(reply, CancelRequested):
                self._harness.cancel(run_id)
                break
            if isinstance(reply, ModelUnavailable):
                break
            if model.uses_model:
                self._record_usage(run_id, reply)
            if reply.tool_calls:
                messages.append(_assistant_calls(reply))
                for call in reply.tool_calls:
                    observation = self._harness.observe(
                        run_id, call.id, call.name, call.arguments, step=step
                    )
                    observations.append((call.id, observation))
                    messages.append(
                        {
                            "role": "tool",
                            "tool_call_id": call.id,
                            "content": json.dumps(observation),
                        }
                    )
                    stopped = stopped or observation.get("stop_required") is True
                if stopped and not model.replays:
                    break
                continue
            if reply.content is not None:
                draft = reply.content
                break
            break
        release = self._harness.release(run_id, draft, repairer=repairer)
        return LoopResult(run_id, tuple(observations), release)

    def _may_continue(self, run_id: str) -> bool:
        summary = self._harness.run_summary(run_id)
        if summary["state"] != RunState.RUNNING.value:
            return False
        deadline = datetime.fromisoformat(str(summary["deadline"]))
        if self._clock.now() >= deadline:
            self._harness.parts.run_service.end(
                run_id, RunState.TIMED_OUT, FailureCode.RUN_TIMED_OUT
            )
            return False
        return True

    def _time_left(self, run_id: str) -> float:
        deadline = datetime.fromisoformat(str(self._harness.run_summary(run_id)["deadline"]))
        return max(0.001, (deadline - self._clock.now()).total_seconds())

    def _meter(self, run_id: str, step: int) -> bool:
        run_service = self._harness.parts.run_service
        outcome = run_service.reserve_model_call(run_id, ModelCallPurpose.AGENT_TURN, step)
        if isinstance(outcome, Committed):
            return True
        if isinstance(outcome, StoreFailed):
            return False
        if isinstance(outcome.error, BudgetExhausted):
            run_service.end(run_id, RunState.BUDGET_EXHAUSTED, FailureCode.BUDGET_EXHAUSTED)
        elif isinstance(outcome.error, DeadlinePassed):
            run_service.end(run_id, RunState.TIMED_OUT, FailureCode.RUN_TIMED_OUT)
        return False

    def _record_usage(self, run_id: str, turn: ModelTurn) -> None:
        if turn.prompt_tokens or turn.completion_tokens:
            self._harness.parts.run_service.record_model_usage(
                run_id, ModelCallPurpose.AGENT_TURN, turn.prompt_tokens, turn.completion_tokens
            )


def _briefing(question: str, summary: JsonObject) -> str:
    return (
        f"Question: {question}\nService: {summary.get('service')}\n"
        f"Window: {summary.get('start')} to {summary.get('end')}"
    )


def _assistant_calls(turn: ModelTurn) -> JsonObject:
    calls: list[JsonValue] = [
        {
            "id": call.id,
            "type": "function",
            "function": {"name": call.name, "arguments": call.arguments},
        }
        for call in turn.tool_calls
    ]
    return {"role": "assistant", "content": turn.content, "tool_calls": calls}
