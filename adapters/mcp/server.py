"""The MCP server: the evidence tools, ``start_run`` and ``release`` on the official SDK.

Built on the SDK's low-level ``Server`` so that each tool's input schema is exactly the one the
registry publishes (the envelope with ``previous_observation`` and ``input``), never one
inferred from a Python signature. Every ``tools/call`` goes to ``McpGateway.call`` on a worker
thread (the harness is synchronous) and comes back as one JSON text block plus the same object
as structured content.

Sessions: a stdio server serves one client, so the process is the session; on streamable HTTP
the session is the ``Mcp-Session-Id`` of a handshake-era (initialize) connection, and a
2026-07-28 client, which keeps no session, is known by its bearer token (or, on a loopback
server without one, as the one local caller). The run a session started is its current run and
usable by it alone, in every server on the same store (the run records its owner). A tool
the server does not list is a JSON-RPC error (invalid params).
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable, Mapping
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.streamable_http import MCP_SESSION_ID_HEADER
from mcp.shared.exceptions import MCPError
from starlette.requests import Request

from factledger.adapters.distribution import installed_version
from factledger.adapters.mcp.gateway import McpGateway, ToolReply
from factledger.application.run_access import token_principal

__all__ = [
    "SERVER_NAME",
    "SessionKey",
    "build_server",
    "http_principal",
    "http_session_key",
    "stdio_session_key",
]

SERVER_NAME = "factledger"
"""The name the server announces."""

SessionKey = Callable[[ServerRequestContext[Any, Any]], str | None]
"""How a transport names the session of a request (None: no session)."""

_log = logging.getLogger(__name__)

_INSTRUCTIONS = (
    "Evidence tools for diagnosing one incident. Call start_run first (question, service, "
    "start, end), then the evidence tools; every observation carries its tool_call_id, and "
    "after a result with evidence_status EVIDENCE_FOUND the next call must evaluate it in "
    "previous_observation. Finish with release, citing tool_call_ids in the draft. The run "
    "started is this caller's current run; another run can be named in a call's _meta as "
    "factledger/run_id."
)


_STDIO_SESSION = f"stdio:{secrets.token_hex(16)}"


def stdio_session_key(_: ServerRequestContext[Any, Any]) -> str | None:
    """A stdio server has exactly one client: the process is the session (one random id per
    process, so another stdio server on the same store is another principal)."""
    return _STDIO_SESSION


def http_session_key(ctx: ServerRequestContext[Any, Any]) -> str | None:
    """The streamable-HTTP session id, when the connection has one."""
    request = ctx.request
    if not isinstance(request, Request):
        return None
    session_id = request.headers.get(MCP_SESSION_ID_HEADER)
    return None if not session_id else f"http:{session_id}"


def http_principal(with_tokens: bool) -> SessionKey:
    """The principal of a streamable-HTTP request: its session, else the bearer token it
    carried (the server checked it against the configured ones), else the loopback caller."""

    def principal(ctx: ServerRequestContext[Any, Any]) -> str | None:
        session = http_session_key(ctx)
        if session is not None:
            return session
        if not with_tokens:
            return "http:loopback"
        request = ctx.request
        header = request.headers.get("authorization", "") if isinstance(request, Request) else ""
        scheme, _, token = header.partition(" ")
        return token_principal(token) if scheme == "Bearer" and token else None

    return principal


def _result(reply: ToolReply) -> types.CallToolResult:
    text = json.dumps(reply.payload, ensure_ascii=False)
    return types.CallToolResult(
        content=[types.TextContent(text=text)],
        structured_content=reply.payload,
        is_error=reply.is_error,
    )


def build_server(gateway: McpGateway, session_key: SessionKey) -> Server[Any]:
    """The low-level SDK server over a gateway; ``session_key`` names each request's session."""
    tools = [types.Tool.model_validate(definition) for definition in gateway.tool_definitions()]

    async def list_tools(
        _ctx: ServerRequestContext[Any, Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        session = session_key(ctx)
        meta: Mapping[str, object] | None = params.meta
        name = params.name
        arguments = params.arguments
        if not gateway.serves(name):
            # A name the server never listed is the request's fault, not a tool's answer.
            raise MCPError(types.INVALID_PARAMS, "unknown tool: the server lists its tools")

        request_id = ctx.request_id

        def run() -> ToolReply:
            return gateway.call(name, arguments, session=session, meta=meta, request_id=request_id)

        try:
            reply = await anyio.to_thread.run_sync(run)
        except Exception as failed:
            # The transport boundary: the client gets a code, and the log a type, never a text.
            _log.error("unexpected %s while serving an MCP tool call", type(failed).__name__)
            reply = ToolReply(
                {"error_code": "INTERNAL_ERROR", "message": "the server could not handle the call"},
                is_error=True,
            )
        return _result(reply)

    return Server(
        SERVER_NAME,
        version=installed_version(),
        instructions=_INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
