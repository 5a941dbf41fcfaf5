"""A request body limit in front of the app: 413 problem+json, never a buffered oversize body.

A declared ``Content-Length`` over the limit is refused before anything is read; a body sent in
chunks is read up to the limit and refused the moment it passes it. The body that fits is
handed to the app unchanged, and after it the app receives the connection's own messages
(so a streaming response still hears the client leave).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from factledger.adapters.http.problems import problem_response

__all__ = ["BodyLimit"]


class BodyLimit:
    """ASGI middleware refusing request bodies over ``max_bytes`` with 413 REQUEST_TOO_LARGE."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        if max_bytes < 0:
            raise ValueError("max_bytes must not be negative")
        self._app = app
        self._max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        if self._declared_too_large(scope):
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

    def _declared_too_large(self, scope: Scope) -> bool:
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                return not value.isdigit() or int(value) > self._max_bytes
        return False

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
        response = problem_response("REQUEST_TOO_LARGE", headers={"Connection": "close"})
        await response(scope, receive, send)
