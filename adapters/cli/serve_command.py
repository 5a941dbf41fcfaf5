"""``factledger serve``: the HTTP API over one harness, with uvicorn.

    factledger serve [--config FILE] [--bind HOST:PORT] [--demo] [--json]

``--demo`` serves the bundled incident on embedded defaults in ``.factledger/`` (its ``[http]``
section still comes from the settings). Without ``[http] token_env`` the server only listens
on loopback. A port something else listens on is reported (``PORT_IN_USE``, exit 1) before
any URL is printed; then the API's and the run console's URLs are printed (under ``--json``
as one object on standard output).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from pathlib import Path

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.cli.contract import CliError, ExitCode, fail
from factledger.adapters.cli.warnings import warn_without_tools
from factledger.adapters.config.settings import SettingsError, load_settings
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.http import ApiOptions, ServeError, create_app, plan_server, serve

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("serve", help="serve the HTTP API (FastAPI, uvicorn)")
    parser.add_argument("--config", help="settings file (default: the lookup order)")
    parser.add_argument("--bind", help="HOST:PORT to listen on (default: [http] bind)")
    parser.add_argument(
        "--demo", action="store_true", help="serve the bundled demo incident (.factledger/)"
    )
    parser.add_argument(
        "--events-max-wait",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="longest an event stream stays open waiting for a release (default: 300)",
    )
    parser.add_argument("--json", action="store_true", help="print the URLs and errors as JSON")
    parser.set_defaults(handler=_run)


def _port_taken(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be bound (as uvicorn binds it), or None when it can."""
    if port == 0:
        return None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as failed:
        return failed.strerror or "the address does not resolve"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as failed:
            return failed.strerror or "the address cannot be bound"
    return None


def _run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.config)
        plan = plan_server(settings.http, args.bind, os.environ)
        taken = _port_taken(plan.host, plan.port)
        if taken is not None:
            return fail(args, "serve", CliError.PORT_IN_USE, f"{plan.authority}: {taken}")
        if args.demo:
            settings = demo_settings(Path(".factledger")).model_copy(update={"http": settings.http})
        options = ApiOptions(
            token=plan.token,
            tokens=plan.tokens,
            allowed_hosts=settings.http.allowed_hosts,
            events_max_wait_seconds=args.events_max_wait,
        )
        harness = build_harness(settings)
    except (SettingsError, ServeError, ValueError) as invalid:
        return fail(args, "serve", CliError.INVALID_SETTINGS, str(invalid), ExitCode.USAGE)
    with harness:
        warn_without_tools("serve", harness)
        base = f"http://{plan.authority}"
        if args.json:
            print(json.dumps({"api": f"{base}/docs", "console": f"{base}/ui/"}), flush=True)
        else:
            print(f"factledger serve: {base}/docs (console: {base}/ui/)", file=sys.stderr)
        serve(create_app(harness, options), plan)
    return 0
