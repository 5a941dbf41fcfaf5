"""``GET /runs/{run_id}/events``: ApplicationStatus changes and tool-call transitions as
server-sent events.

The server polls ``Harness.timeline`` and sends each new entry once: an event ``status`` for
an ApplicationStatus change, an event ``call`` for a tool call's transition (RESERVED,
PROJECTING, then READY or ERROR, with its tool and, once finished, its evidence status,
truncation or error code). Its ``id`` is its position in the timeline, so a client that
reconnects with ``Last-Event-ID`` gets only what it missed. When the run reaches DONE the
stream sends exactly one event ``released`` carrying the release result, and closes. No event
carries a body, an argument or a partial conclusion.

The stream is bounded: it stops polling when the client leaves, and after the configured
longest wait it sends one event ``timeout`` and closes (reconnect to go on waiting). A store
that fails mid-stream ends it with one event ``error`` carrying a stable code.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import anyio
from attrs import frozen
from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse

from factledger.adapters.http.models import StreamError, StreamTimeout
from factledger.adapters.http.shapes import response_model
from factledger.application.harness import Harness, HarnessError
from factledger.application.run_timeline import CallTransition, TimelineEntry
from factledger.application.statuses import StatusChange
from factledger.domain.json_types import JsonValue
from factledger.domain.status import ApplicationStatus

__all__ = [
    "EVENT_MODELS",
    "CallTransitionModel",
    "EVENT_SCHEMA",
    "EventStreamResponse",
    "StreamLimits",
    "sse_frame",
    "status_events",
]


class EventStreamResponse(StreamingResponse):
    """A ``text/event-stream`` response (marks the operation's media type in the OpenAPI)."""

    media_type = "text/event-stream"


@frozen
class StreamLimits:
    """How one event stream polls and how long it may stay open."""

    max_wait_seconds: float
    """Longest a stream stays open waiting for the release."""
    poll_seconds: float
    """Pause between two reads of the run's statuses."""
    keepalive_seconds: float
    """Longest silence before a comment line keeps proxies from closing the stream."""


def sse_frame(event: str, data: JsonValue, event_id: str | None = None) -> bytes:
    """One server-sent event: a name, one line of JSON, and an optional id."""
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append(f"data: {json.dumps(data, separators=(',', ':'))}")
    return ("\n".join(lines) + "\n\n").encode("utf-8")


def _error(run_id: str, failed: HarnessError) -> bytes:
    error = StreamError(run_id=run_id, code=failed.code.value)
    return sse_frame("error", error.model_dump(mode="json"))


def _event_schema(name: str, data: str) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["event", "data"],
        "properties": {
            "event": {"const": name},
            "id": {"type": "string"},
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": {"$ref": f"#/components/schemas/{data}"},
            },
        },
    }


EVENT_SCHEMA: dict[str, Any] = {
    "oneOf": [
        _event_schema("status", "StatusChange"),
        _event_schema("call", "CallTransition"),
        _event_schema("released", "ReleaseResult"),
        _event_schema("timeout", "StreamTimeout"),
        _event_schema("error", "StreamError"),
    ]
}
"""One event of the stream (its ``data`` is JSON of the named schema)."""

CallTransitionModel = response_model(CallTransition)

EVENT_MODELS = (StreamTimeout, StreamError, CallTransitionModel)
"""Event payloads no endpoint returns, to add to the document's schemas."""


def _is_done(entries: Sequence[TimelineEntry]) -> bool:
    return any(
        isinstance(entry, StatusChange) and entry.status is ApplicationStatus.DONE
        for entry in entries
    )


def _frame(entry: TimelineEntry, position: int) -> bytes:
    name = "status" if isinstance(entry, StatusChange) else "call"
    return sse_frame(name, entry.to_json(), str(position + 1))


async def status_events(
    harness: Harness,
    run_id: str,
    first: Sequence[TimelineEntry],
    *,
    already_sent: int,
    limits: StreamLimits,
    disconnected: Callable[[], Awaitable[bool]],
) -> AsyncIterator[bytes]:
    """The stream of one run: ``first`` is the timeline read when the request arrived."""
    deadline = time.monotonic() + limits.max_wait_seconds
    last_write = time.monotonic()
    sent = already_sent
    changes = first
    while True:
        for position in range(sent, len(changes)):
            yield _frame(changes[position], position)
            last_write = time.monotonic()
        sent = max(sent, len(changes))
        if _is_done(changes):
            try:
                result = await run_in_threadpool(harness.released, run_id)
            except HarnessError as failed:
                yield _error(run_id, failed)
                return
            yield sse_frame("released", result.to_json())
            return
        now = time.monotonic()
        if now >= deadline:
            timeout = StreamTimeout(run_id=run_id, waited_seconds=limits.max_wait_seconds)
            yield sse_frame("timeout", timeout.model_dump(mode="json"))
            return
        if await disconnected():
            return
        if now - last_write >= limits.keepalive_seconds:
            yield b": keep-alive\n\n"
            last_write = now
        await anyio.sleep(min(limits.poll_seconds, max(deadline - now, 0.0)))
        try:
            changes = await run_in_threadpool(harness.timeline, run_id)
        except HarnessError as failed:
            yield _error(run_id, failed)
            return
