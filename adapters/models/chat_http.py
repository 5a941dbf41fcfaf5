"""A minimal client for any OpenAI-compatible Chat Completions endpoint.

Timeouts on every request; retries with exponential backoff (and ``Retry-After`` when given)
on 429 and 5xx and on connection errors; never an exception or a server message to the
caller: every failure is a short code. The API key is read from an environment variable named
in the settings, never from a file.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence

import httpx
from attrs import frozen

from factledger.domain.json_types import JsonObject, JsonValue

__all__ = ["ChatClient", "ChatFailure", "ChatReply", "ToolCallRequest"]


@frozen
class ToolCallRequest:
    """A tool call the model asked for."""

    id: str
    """The model's tool_call_id."""
    name: str
    """The tool's name as the model wrote it."""
    arguments: str
    """The arguments, verbatim."""


@frozen
class ChatReply:
    """One assistant message."""

    content: str | None
    """Its text, if any."""
    tool_calls: tuple[ToolCallRequest, ...]
    """The tool calls it asks for, if any."""
    prompt_tokens: int
    """Prompt tokens billed."""
    completion_tokens: int
    """Completion tokens billed."""
    finish_reason: str | None
    """Why it stopped (``stop``, ``tool_calls``, ``length`` …)."""


@frozen
class ChatFailure:
    """No usable reply."""

    reason: str
    """``TIMEOUT``, ``CONNECTION_REFUSED`` (nothing listens, or the name does not resolve),
    ``CONNECTION`` (the connection broke), ``HTTP_<status>``, ``MALFORMED_REPLY`` or
    ``DEADLINE``."""


class ChatClient:
    """Chat Completions over HTTP with timeouts and bounded retries."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None,
        *,
        timeout_seconds: float = 60.0,
        max_retries: int = 3,
        backoff_seconds: float = 0.5,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers=headers,
            timeout=timeout_seconds,
            transport=transport,
        )
        self._model = model
        self._max_retries = max_retries
        self._backoff = backoff_seconds
        self._sleep = sleep

    @property
    def model(self) -> str:
        """The model name sent with every request."""
        return self._model

    def complete(
        self,
        messages: Sequence[JsonObject],
        *,
        tools: Sequence[JsonObject] | None = None,
        response_format: JsonObject | None = None,
        temperature: float = 0.0,
        timeout_seconds: float | None = None,
        deadline: float | None = None,
    ) -> ChatReply | ChatFailure:
        """One completion; ``deadline`` (``time.monotonic()`` value) bounds all retries."""
        body: JsonObject = {
            "model": self._model,
            "messages": list[JsonValue](messages),
            "temperature": temperature,
        }
        if tools:
            body["tools"] = list[JsonValue](tools)
        if response_format is not None:
            body["response_format"] = response_format
        failure = ChatFailure("CONNECTION")
        for attempt in range(self._max_retries + 1):
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return ChatFailure("DEADLINE")
            timeout = (
                min(x for x in (timeout_seconds, left) if x is not None)
                if (timeout_seconds is not None or left is not None)
                else None
            )
            try:
                response = self._client.post(
                    "/chat/completions",
                    json=body,
                    timeout=timeout if timeout is not None else httpx.USE_CLIENT_DEFAULT,
                )
            except httpx.TimeoutException:
                failure = ChatFailure("TIMEOUT")
            except httpx.ConnectError:
                failure = ChatFailure("CONNECTION_REFUSED")
            except httpx.HTTPError:
                failure = ChatFailure("CONNECTION")
            else:
                if response.status_code == 200:
                    return _reply(response)
                failure = ChatFailure(f"HTTP_{response.status_code}")
                if response.status_code != 429 and response.status_code < 500:
                    return failure
                retry_after = _retry_after(response)
                if retry_after is not None and attempt < self._max_retries:
                    self._pause(retry_after, deadline)
                    continue
            if attempt < self._max_retries:
                self._pause(self._backoff * (2**attempt), deadline)
        return failure

    def _pause(self, seconds: float, deadline: float | None) -> None:
        if deadline is not None:
            seconds = min(seconds, max(0.0, deadline - time.monotonic()))
        if seconds > 0:
            self._sleep(seconds)

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return min(float(value), 30.0) if value is not None else None
    except ValueError:
        return None


def _reply(response: httpx.Response) -> ChatReply | ChatFailure:
    try:
        data = response.json()
        choice = data["choices"][0]
        message = choice["message"]
        calls = tuple(
            ToolCallRequest(
                str(call["id"]), str(call["function"]["name"]), _arguments(call["function"])
            )
            for call in message.get("tool_calls") or ()
        )
        usage = data.get("usage") or {}
        content = message.get("content")
        return ChatReply(
            content=content if isinstance(content, str) else None,
            tool_calls=calls,
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            finish_reason=choice.get("finish_reason"),
        )
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return ChatFailure("MALFORMED_REPLY")


def _arguments(function: dict[str, object]) -> str:
    arguments = function.get("arguments", "")
    if isinstance(arguments, str):
        return arguments
    return json.dumps(arguments)
