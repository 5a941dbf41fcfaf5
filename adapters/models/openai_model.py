"""The agent's model over any OpenAI-compatible Chat Completions endpoint with tool calling."""

from __future__ import annotations

import time

from factledger.adapters.models.chat_http import ChatClient, ChatFailure
from factledger.ports.model_client import (
    ModelToolCall,
    ModelTurn,
    ModelUnavailable,
    TurnReply,
    TurnRequest,
)

__all__ = ["OpenAiChatModel"]


class OpenAiChatModel:
    """A live model: every turn is a metered model call."""

    uses_model = True
    replays = False

    def __init__(self, client: ChatClient) -> None:
        self._client = client

    def next_turn(self, request: TurnRequest) -> TurnReply:
        reply = self._client.complete(
            request.messages,
            tools=request.tools or None,
            temperature=0.0,
            timeout_seconds=request.timeout_seconds,
            deadline=time.monotonic() + request.timeout_seconds,
        )
        if isinstance(reply, ChatFailure):
            return ModelUnavailable(reply.reason)
        return ModelTurn(
            content=reply.content,
            tool_calls=tuple(
                ModelToolCall(call.id, call.name, call.arguments) for call in reply.tool_calls
            ),
            prompt_tokens=reply.prompt_tokens,
            completion_tokens=reply.completion_tokens,
        )
