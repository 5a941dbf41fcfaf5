"""The MCP server: the evidence tools, ``start_run`` and ``release`` over stdio or streamable
HTTP, on the official ``mcp`` SDK (see ``docs/adr/0007-mcp-server.md``)."""

from factledger.adapters.mcp.gateway import (
    META_RUN_ID,
    META_STEP,
    META_TOOL_CALL_ID,
    GatewayErrorCode,
    McpGateway,
    ToolReply,
)
from factledger.adapters.mcp.server import build_server
from factledger.adapters.mcp.transports import BindRefused, http_app, serve_http, serve_stdio

__all__ = [
    "META_RUN_ID",
    "META_STEP",
    "META_TOOL_CALL_ID",
    "BindRefused",
    "GatewayErrorCode",
    "McpGateway",
    "ToolReply",
    "build_server",
    "http_app",
    "serve_http",
    "serve_stdio",
]
