"""The agent's model: asked for its next turn given the conversation and the tools."""

from __future__ import annotations

from typing import Protocol, TypeAlias

from attrs import frozen

from factledger.domain.json_types import JsonObject

__all__ = [
    "CancelRequested",
    "ModelClient",
    "ModelToolCall",
    "ModelTurn",
    "ModelUnavailable",
    "TurnReply",
    "TurnRequest",
]


@frozen
class TurnRequest:
    """What the model is given for one turn."""

    messages: tuple[JsonObject, ...]
    """The conversation so far (Chat Completions messages)."""
    tools: tuple[JsonObject, ...]
    """The tool definitions (OpenAI format)."""
    timeout_seconds: float
    """Longest the turn may take (never past the run's deadline)."""


@frozen
class ModelToolCall:
    """A tool call the model asks for."""

    id: str
    """Its tool_call_id."""
    name: str
    """The tool's name as the model wrote it."""
    arguments: str
    """The arguments, verbatim."""


@frozen
class ModelTurn:
    """One assistant turn: tool calls, or text (a draft), or neither."""

    content: str | None
    """Text, when the model answered instead of calling tools."""
    tool_calls: tuple[ModelToolCall, ...] = ()
    """Tool calls, when it asked for some."""
    prompt_tokens: int = 0
    """Prompt tokens billed."""
    completion_tokens: int = 0
    """Completion tokens billed."""


@frozen
class ModelUnavailable:
    """No turn could be obtained (timeouts, errors, an exhausted transcript)."""

    reason: str
    """A short code."""


@frozen
class CancelRequested:
    """The recorded agent cancelled its run (transcripts only)."""


TurnReply: TypeAlias = ModelTurn | ModelUnavailable | CancelRequested
"""What a model gives back for one turn."""


class ModelClient(Protocol):
    """A model, live or recorded."""

    @property
    def uses_model(self) -> bool:
        """True when a turn is a billed model call (metered against the run's model budget)."""
        ...

    @property
    def replays(self) -> bool:
        """True for a recording: every turn is replayed as recorded, even after a stop."""
        ...

    def next_turn(self, request: TurnRequest) -> TurnReply:
        """The next turn."""
        ...
