"""Serving the MCP server over stdio or streamable HTTP.

HTTP binds loopback by default. Another address is served only with a bearer token (the
``[http] token_env`` variable), and a configured token is then required on every request,
loopback included. On loopback the SDK's DNS-rebinding protection is on.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from typing import Any

import uvicorn
from mcp.server.stdio import stdio_server
from starlette.types import ASGIApp, Receive, Scope, Send

from factledger.adapters.mcp.gateway import McpGateway
from factledger.adapters.mcp.server import build_server, http_principal, stdio_session_key

__all__ = [
    "MCP_PATH",
    "BindRefused",
    "BearerGuard",
    "check_bind",
    "http_app",
    "is_loopback",
    "serve_http",
    "serve_stdio",
]

MCP_PATH = "/mcp"
"""Where the streamable-HTTP endpoint lives."""


class BindRefused(ValueError):
    """An address the server will not bind without a bearer token."""


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP addresses."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


async def serve_stdio(gateway: McpGateway) -> None:
    """Serve one client over the process's stdin and stdout until it closes them."""
    server = build_server(gateway, stdio_session_key)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


class BearerGuard:
    """An ASGI wrapper that answers 401 to HTTP requests without the bearer token."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self._app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass lifespan events and authorised requests through; refuse the others."""
        if scope["type"] == "http":
            given = dict(scope["headers"]).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                body = json.dumps({"error_code": "UNAUTHORIZED"}).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b"Bearer"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self._app(scope, receive, send)


def check_bind(host: str, token: str | None) -> None:
    """Raise ``BindRefused`` for a non-loopback host without a token."""
    if token is None and not is_loopback(host):
        raise BindRefused(
            f"refusing to serve MCP on {host!r} without a bearer token: set [http] token_env "
            "to a variable that holds one, or bind a loopback address"
        )


def http_app(gateway: McpGateway, host: str, token: str | None) -> ASGIApp:
    """The streamable-HTTP ASGI app at ``/mcp``; refuses a non-loopback host without a token."""
    check_bind(host, token)
    server = build_server(gateway, http_principal(token))
    app: ASGIApp = server.streamable_http_app(streamable_http_path=MCP_PATH, host=host)
    return app if token is None else BearerGuard(app, token)


def serve_http(gateway: McpGateway, host: str, port: int, token: str | None) -> None:
    """Serve streamable HTTP at ``http://host:port/mcp`` until interrupted."""
    app = http_app(gateway, host, token)
    config: Any = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    uvicorn.Server(config).run()
