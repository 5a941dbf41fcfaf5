"""``factledger demo``: a run on embedded defaults, end to end."""

from __future__ import annotations

import argparse

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("demo", help="run the bundled example on embedded defaults")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=_run)


def _run(_: argparse.Namespace) -> int:
    raise SystemExit("the demo is being built")
