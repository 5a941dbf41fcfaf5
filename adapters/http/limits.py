"""A request body limit in front of the app: 413 problem+json, never a buffered oversize body.

A body is read up to the limit and refused the moment it passes it (a declared
``Content-Length`` over the limit is refused before the app sees anything). The rest of a
refused body is read and thrown away, up to a bound, before the 413 goes out: a server that
closes a connection with unread data resets it, and the client would lose the answer. A body
beyond that bound is cut off. The body that fits is handed to the app unchanged, and after it
the app receives the connection's own messages (so a streaming response still hears the
client leave).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from factledger.adapters.http.problems import problem_response

__all__ = ["BodyLimit"]

_DRAIN_FACTOR = 4
_DRAIN_MIN_BYTES = 1024 * 1024


class BodyLimit:
    """ASGI middleware refusing request bodies over ``max_bytes`` with 413 REQUEST_TOO_LARGE."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        if max_bytes < 0:
            raise ValueError("max_bytes must not be negative")
        self._app = app
        self._max_bytes = max_bytes
        self._drain_bytes = max(_DRAIN_FACTOR * max_bytes, _DRAIN_MIN_BYTES)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        declared = self._declared_length(scope)
        if declared is not None and declared > self._max_bytes:
            if declared <= self._drain_bytes:
                await self._drain(receive, declared)
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before its body arrived
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self._max_bytes:
                if message.get("more_body", False):
                    await self._drain(receive, self._drain_bytes - size)
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        handed = False

        async def replay() -> Message:
            nonlocal handed
            if not handed:
                handed = True
                return body
            return await receive()

        await self._app(scope, replay, send)

    @staticmethod
    def _declared_length(scope: Scope) -> int | None:
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit():
                return int(value)
        return None

    @staticmethod
    async def _drain(receive: Receive, budget: int) -> None:
        """Read and drop the rest of a refused body, at most ``budget`` bytes."""
        while budget > 0:
            message = await receive()
            if message["type"] != "http.request":
                return
            budget -= len(message.get("body", b""))
            if not message.get("more_body", False):
                return

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
        response = problem_response("REQUEST_TOO_LARGE", headers={"Connection": "close"})
        await response(scope, receive, send)
