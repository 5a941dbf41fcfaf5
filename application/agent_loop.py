"""The built-in agent loop: drive any ``ModelClient`` through the harness, then release.

Each turn is a metered model call (when the model is one) within the run's deadline. Tool
calls go through the interceptor and the boundary like any transport's; the observation is
what the model sees next. The tool calls of one model turn are one agent step (the turn's
number): they are admitted together, and the next turn evaluates every result among them
that found evidence. A draft is checked first (the release's guards, not publishing): while
the check finds issues and checks remain (``[release] check_attempts``), its issues go back to
the model for a mended draft. The loop stops on a draft that passes or may not be checked
again, on ``stop_required``, on budget or deadline, on cancellation, or when the model gives
nothing more — then it releases. A model call that fails (unreachable, refused, unreadable) is
recorded as MODEL_CALL_FAILED with its reason before the release. A
recording (``replays``) is replayed turn by turn as recorded, even after a stop: the harness
refuses those calls as it would a live model's.
"""

from __future__ import annotations

import json
from datetime import datetime

from attrs import frozen

from factledger.application.harness import Harness
from factledger.application.harness_errors import HarnessError, HarnessErrorCode
from factledger.application.observation import Observation
from factledger.application.run_views import RunSummary
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.status import RunState
from factledger.ports.clock import Clock
from factledger.ports.draft_repair import DraftRepairer
from factledger.ports.model_client import (
    CancelRequested,
    ModelClient,
    ModelTurn,
    ModelUnavailable,
    TurnRequest,
)

__all__ = ["AgentLoop", "CHECK_FEEDBACK", "LoopResult", "SYSTEM_PROMPT"]

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

CHECK_FEEDBACK = (
    "Your draft would not be published as it is. Each validation issue names its analysis "
    "(analysis_index, 0-based; null for the conclusion or the whole draft), the citation "
    "concerned, a reason code and, where it helps, the words of your claim at fault (token). "
    "Mend the draft: cite only tool_call_ids of results you received, of the right kind, and "
    "say no more than each cited result shows. You may call tools again first. Then answer "
    "with only the JSON draft. The check: "
)


@frozen
class LoopResult:
    """What one run of the loop produced."""

    run_id: str
    """The run."""
    observations: tuple[tuple[str, Observation], ...]
    """Every tool call's id and the observation the model received, in order."""
    release: ReleaseResult
    """The release result."""

    def to_json(self) -> JsonObject:
        """``{"run_id", "observations": [{"tool_call_id", "observation"}], "release"}``."""
        return {
            "run_id": self.run_id,
            "observations": [
                {"tool_call_id": tool_call_id, "observation": observation.to_json()}
                for tool_call_id, observation in self.observations
            ],
            "release": self.release.to_json(),
        }


class AgentLoop:
    """Runs a model against one run of a harness, through the facade's operations only."""

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
        harness = self._harness
        tools = tuple(harness.tool_definitions(run_id)) if harness.tool_names else ()
        observations: list[tuple[str, Observation]] = []
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
                if model.uses_model:  # a recording that ends is the agent's own end
                    self._model_failed(run_id, step, reply.reason)
                break
            if model.uses_model:
                self._record_usage(run_id, reply)
            if reply.tool_calls:
                messages.append(_assistant_calls(reply))
                batch = self._observe_batch(run_id, reply, step)
                observations += batch
                messages += [_tool_message(call_id, seen) for call_id, seen in batch]
                stopped = stopped or any(seen.stop_required for _, seen in batch)
                if stopped and not model.replays:
                    break
                continue
            if reply.content is not None:
                draft = reply.content
                feedback = self._check(run_id, draft)
                if feedback is not None:
                    messages += [{"role": "assistant", "content": draft}, feedback]
                    continue
            break
        release = self._harness.release(run_id, draft, repairer=repairer)
        return LoopResult(run_id, tuple(observations), release)

    def _observe_batch(
        self, run_id: str, reply: ModelTurn, step: int
    ) -> list[tuple[str, Observation]]:
        """Every call of one model turn, admitted as one step, in the order the model made them."""
        return [
            (call.id, self._harness.observe(run_id, call.id, call.name, call.arguments, step=step))
            for call in reply.tool_calls
        ]

    def _check(self, run_id: str, draft: str) -> JsonObject | None:
        """The check's issues as the model's next message, or ``None`` when the draft would
        be published as it is or cannot be checked any more (then it is released)."""
        try:
            checked = self._harness.check(run_id, draft)
        except HarnessError:
            return None  # no check left, or the run cannot be checked: release decides
        if checked.passed:
            return None
        return {"role": "user", "content": CHECK_FEEDBACK + json.dumps(checked.to_json())}

    def _model_failed(self, run_id: str, step: int, code: str) -> None:
        self._harness.record_model_failure(run_id, code, step=step)

    def _may_continue(self, run_id: str) -> bool:
        return self._harness.enforce_deadline(run_id).state is RunState.RUNNING

    def _time_left(self, run_id: str) -> float:
        deadline = self._harness.run_summary(run_id).deadline
        return max(0.001, (deadline - self._clock.now()).total_seconds())

    def _meter(self, run_id: str, step: int) -> bool:
        """One metered agent turn (a refusal ends the run, as for any host's model calls)."""
        try:
            usage = self._harness.record_model_usage(run_id, 1, 0, 0, step=step)
        except HarnessError as failed:
            if failed.code is HarnessErrorCode.STORE_UNAVAILABLE:
                return False
            raise
        return usage.accepted_calls == 1

    def _record_usage(self, run_id: str, turn: ModelTurn) -> None:
        if turn.prompt_tokens or turn.completion_tokens:
            try:
                self._harness.record_model_usage(
                    run_id, 0, turn.prompt_tokens, turn.completion_tokens
                )
            except HarnessError as failed:
                if failed.code is not HarnessErrorCode.STORE_UNAVAILABLE:
                    raise


def _iso(instant: datetime | None) -> str | None:
    return None if instant is None else instant.isoformat()


def _briefing(question: str, summary: RunSummary) -> str:
    return (
        f"Question: {question}\nService: {summary.service}\n"
        f"Window: {_iso(summary.start)} to {_iso(summary.end)}"
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


def _tool_message(call_id: str, observation: Observation) -> JsonObject:
    return {"role": "tool", "tool_call_id": call_id, "content": json.dumps(observation.to_json())}
