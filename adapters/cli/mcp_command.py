"""``factledger mcp``: the evidence tools as an MCP server (stdio or streamable HTTP).

    factledger mcp [--config FILE | --demo] [--transport stdio|http] [--bind HOST:PORT]

An MCP client calls ``start_run``, then the evidence tools (``lookup_knowledge``,
``query_logs``, ``query_sql``: each call goes through the interceptor and the boundary, and
returns the model observation), then ``release`` with its draft. The run is this session's
(the one ``start_run`` began) or the one named in a call's ``_meta`` as
``factledger/run_id``. Each evidence call gets a fresh tool_call_id (``mcp-<server>-<n>``, in
the observation) unless its ``_meta`` brings one as ``factledger/tool_call_id``.

``--demo`` serves the bundled incident (store and data in ``.factledger/``). HTTP serves
``http://HOST:PORT/mcp`` on loopback (default ``127.0.0.1:8788``); another address needs a
bearer token from the ``[http] token_env`` variable, which every request must then carry.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import anyio

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.cli.contract import CliError, ExitCode, fail
from factledger.adapters.cli.warnings import warn_without_tools
from factledger.adapters.config.settings import Settings, SettingsError, load_settings
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.http.auth import TokenError, tokens_from_env
from factledger.adapters.mcp.gateway import McpGateway
from factledger.adapters.mcp.transports import BindRefused, check_bind, serve_http, serve_stdio

__all__ = ["DEFAULT_BIND", "register"]

DEFAULT_BIND = "127.0.0.1:8788"
"""Where ``--transport http`` listens unless ``--bind`` says otherwise."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``factledger mcp``."""
    parser = subparsers.add_parser("mcp", help="serve the evidence tools over MCP")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--config", help="settings file (default: the lookup order)")
    source.add_argument(
        "--demo", action="store_true", help="serve the bundled demo incident (.factledger/)"
    )
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument(
        "--bind", default=DEFAULT_BIND, help=f"HOST:PORT for http (default {DEFAULT_BIND})"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="startup errors as JSON (the server speaks MCP)",
    )
    parser.set_defaults(handler=_run)


def _address(bind: str) -> tuple[str, int]:
    host, _, port = bind.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SettingsError(f"--bind: expected HOST:PORT, got {bind!r}")
    return host.strip("[]"), int(port)


def _tokens(settings: Settings) -> tuple[str, ...]:
    try:
        return tokens_from_env(settings.http.token_env, os.environ)
    except TokenError as missing:
        raise SettingsError(f"http.token_env: {missing}") from None


def _run(args: argparse.Namespace) -> int:
    try:
        settings = demo_settings(Path(".factledger")) if args.demo else load_settings(args.config)
        host, port = _address(args.bind)
        tokens = _tokens(settings) if args.transport == "http" else ()
        if args.transport == "http":
            check_bind(host, tokens)
        harness = build_harness(settings)
    except (SettingsError, BindRefused, OSError) as invalid:
        return fail(args, "mcp", CliError.INVALID_SETTINGS, str(invalid), ExitCode.USAGE)
    with harness:
        warn_without_tools("mcp", harness)
        gateway = McpGateway(harness, tokens_configured=bool(tokens))
        try:
            if args.transport == "stdio":
                anyio.run(serve_stdio, gateway)
            else:
                serve_http(gateway, host, port, tokens, settings.http.allowed_hosts)
        except KeyboardInterrupt:
            return 130
    return 0
