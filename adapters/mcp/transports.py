"""Serving the MCP server over stdio or streamable HTTP.

HTTP binds loopback by default. Another address is served only with a bearer token (the
``[http] token_env`` variable), and a configured token is then required on every request,
loopback included. On loopback the SDK's DNS-rebinding protection is on; ``[http] allowed_hosts``
adds host names to the loopback ones it serves (any other ``Host`` is 421).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from typing import Any

import uvicorn
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings
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
    """An ASGI wrapper that answers 401 to HTTP requests without one of the bearer tokens."""

    def __init__(self, app: ASGIApp, tokens: tuple[str, ...]) -> None:
        self._app = app
        self._expected = [f"Bearer {token}".encode() for token in tokens]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass lifespan events and authorised requests through; refuse the others."""
        if scope["type"] == "http":
            given = dict(scope["headers"]).get(b"authorization", b"")
            matches = [hmac.compare_digest(given, expected) for expected in self._expected]
            if not any(matches):
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


def check_bind(host: str, tokens: tuple[str, ...]) -> None:
    """Raise ``BindRefused`` for a non-loopback host without a token."""
    if not tokens and not is_loopback(host):
        raise BindRefused(
            f"refusing to serve MCP on {host!r} without a bearer token: set [http] token_env "
            "to a variable that holds one, or bind a loopback address"
        )


_LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def host_security(allowed_hosts: tuple[str, ...]) -> TransportSecuritySettings | None:
    """The SDK's DNS-rebinding guard over the loopback names and ``[http] allowed_hosts``;
    None without allowed names (the SDK's own: loopback names on a loopback bind)."""
    if not allowed_hosts:
        return None
    names = (*_LOOPBACK, *allowed_hosts)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[pattern for name in names for pattern in (name, f"{name}:*")],
        allowed_origins=[
            f"{scheme}://{name}{port}"
            for name in names
            for scheme in ("http", "https")
            for port in ("", ":*")
        ],
    )


def http_app(
    gateway: McpGateway, host: str, tokens: tuple[str, ...], allowed_hosts: tuple[str, ...] = ()
) -> ASGIApp:
    """The streamable-HTTP ASGI app at ``/mcp``; refuses a non-loopback host without a token.
    ``allowed_hosts`` adds ``Host`` names to the loopback ones (any other is 421)."""
    check_bind(host, tokens)
    server = build_server(gateway, http_principal(bool(tokens)))
    app: ASGIApp = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        host=host,
        transport_security=host_security(allowed_hosts),
    )
    return BearerGuard(app, tokens) if tokens else app


def serve_http(
    gateway: McpGateway,
    host: str,
    port: int,
    tokens: tuple[str, ...],
    allowed_hosts: tuple[str, ...] = (),
) -> None:
    """Serve streamable HTTP at ``http://host:port/mcp`` until interrupted."""
    app = http_app(gateway, host, tokens, allowed_hosts)
    config: Any = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    uvicorn.Server(config).run()
