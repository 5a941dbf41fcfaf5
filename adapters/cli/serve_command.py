"""``factledger serve``: the HTTP API over one harness, with uvicorn.

    factledger serve [--config FILE] [--bind HOST:PORT] [--demo]

``--demo`` serves the bundled incident on embedded defaults in ``.factledger/`` (its ``[http]``
section still comes from the settings). Without ``[http] token_env`` the server only listens
on loopback.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from factledger.adapters.bootstrap import build_harness
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
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.config)
        plan = plan_server(settings.http, args.bind, os.environ)
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
        print(f"factledger serve: {invalid}", file=sys.stderr)
        return 2
    with harness:
        warn_without_tools("serve", harness)
        print(f"factledger serve: http://{plan.authority}/docs", file=sys.stderr)
        serve(create_app(harness, options), plan)
    return 0
