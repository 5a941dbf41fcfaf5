"""Recorded agent behaviour, replayed deterministically (tests, demos, regression tests).

``{"question": str, "context": {"service", "start", "end"}, "turns": [...]}`` where a turn is
one of ``{"tool_call": {"id", "name", "arguments": <string sent verbatim> | {object}}}``,
``{"tool_calls": [<tool call>, ...]}`` (one model turn asking for several calls at once: they
are one agent step, admitted together), ``{"draft": {...}}``, ``{"draft_text": "<raw text
sent verbatim>"}``, ``{"repair": {...}}`` or ``{"cancel": true}``. An object ``arguments`` is
the whole envelope the model sends, serialized as is. ``repair`` turns are consumed, in
order, by EvidenceRepair attempts. No draft turn means the agent stopped without one.
"""

from __future__ import annotations

import json
import threading
from datetime import datetime
from pathlib import Path

from attrs import frozen
from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from factledger.adapters.judges.recorded_repairs import RecordedRepairs
from factledger.application.contracts.instant import Instant
from factledger.domain.json_types import JsonObject
from factledger.ports.model_client import (
    CancelRequested,
    ModelToolCall,
    ModelTurn,
    ModelUnavailable,
    TurnReply,
    TurnRequest,
)

__all__ = ["Transcript", "TranscriptError", "TranscriptModel", "load_transcript"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _ToolCall(_Strict):
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    arguments: str | dict[str, JsonValue]


class _Context(_Strict):
    service: str | None = None
    start: Instant | None = None
    end: Instant | None = None


class _Turn(_Strict):
    tool_call: _ToolCall | None = None
    tool_calls: list[_ToolCall] | None = Field(default=None, min_length=1, max_length=64)
    draft: dict[str, JsonValue] | None = None
    draft_text: str | None = None
    repair: dict[str, JsonValue] | str | None = None
    cancel: bool | None = None


class _Transcript(_Strict):
    question: str = ""
    context: _Context = Field(default_factory=_Context)
    turns: list[_Turn]


class TranscriptError(ValueError):
    """A transcript that cannot be replayed; the message names the problem, not content."""


@frozen
class Transcript:
    """A parsed transcript."""

    question: str
    service: str | None
    start: datetime | None
    end: datetime | None
    turns: tuple[TurnReply, ...]
    """Agent turns (tool calls, drafts, cancel) in order."""
    repairs: tuple[str, ...]
    """Repaired drafts, in order."""


def load_transcript(source: str | Path) -> Transcript:
    """Parse a transcript from a file path or JSON text."""
    text = Path(source).read_text(encoding="utf-8") if isinstance(source, Path) else source
    try:
        parsed = _Transcript.model_validate_json(text)
    except ValidationError as invalid:
        where = ", ".join(".".join(str(p) for p in e["loc"]) for e in invalid.errors()[:3])
        raise TranscriptError(f"not a valid transcript ({where})") from None
    turns: list[TurnReply] = []
    repairs: list[str] = []
    for index, turn in enumerate(parsed.turns):
        given = [
            name
            for name in ("tool_call", "tool_calls", "draft", "draft_text", "repair", "cancel")
            if getattr(turn, name) is not None
        ]
        if len(given) != 1:
            raise TranscriptError(f"turn {index} must hold exactly one of its kinds")
        calls = [turn.tool_call] if turn.tool_call is not None else turn.tool_calls
        if calls:
            turns.append(ModelTurn(content=None, tool_calls=tuple(map(_model_call, calls))))
        elif turn.draft is not None:
            turns.append(ModelTurn(content=json.dumps(turn.draft)))
        elif turn.draft_text is not None:
            turns.append(ModelTurn(content=turn.draft_text))
        elif turn.repair is not None:
            repair = turn.repair
            repairs.append(repair if isinstance(repair, str) else json.dumps(repair))
        elif turn.cancel:
            turns.append(CancelRequested())
    context = parsed.context
    return Transcript(
        parsed.question, context.service, context.start, context.end, tuple(turns), tuple(repairs)
    )


def _model_call(call: _ToolCall) -> ModelToolCall:
    arguments = call.arguments
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ModelToolCall(call.id, call.name, text)


class TranscriptModel:
    """Replays a transcript's turns; unavailable once they are used up."""

    uses_model = False
    replays = True

    def __init__(self, transcript: Transcript) -> None:
        self._turns = list(transcript.turns)
        self._lock = threading.Lock()
        self.repairer = RecordedRepairs(list[JsonObject | str](transcript.repairs))

    def next_turn(self, request: TurnRequest) -> TurnReply:
        with self._lock:
            if not self._turns:
                return ModelUnavailable("TRANSCRIPT_ENDED")
            return self._turns.pop(0)
