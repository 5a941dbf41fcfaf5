"""Entry point of the ``factledger`` command.

Each sub-command lives in its own module with a ``register(subparsers)`` function; this module
only lists them. Every handler returns the process exit code.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version

__all__ = ["main"]

Register = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


def _registrations() -> tuple[Register, ...]:
    # One line per command module; imported here so that `factledger --help` stays fast.
    from factledger.adapters.cli import (
        demo_command,
        logs_command,
        mcp_command,
        rebuild_command,
        run_command,
        runs_command,
        serve_command,
        sql_command,
        worker_command,
    )

    return (
        demo_command.register,
        run_command.register,
        sql_command.register,
        runs_command.register,
        logs_command.register,
        mcp_command.register,
        serve_command.register,
        rebuild_command.register,
        worker_command.register,
    )


def _package_version() -> str:
    try:
        return version("factledger")
    except PackageNotFoundError:  # pragma: no cover - only when run from a source tree
        return "0+unknown"


def build_parser() -> argparse.ArgumentParser:
    """The whole argument parser, with every registered sub-command."""
    parser = argparse.ArgumentParser(
        prog="factledger",
        description="A deterministic control boundary around an LLM diagnosis agent.",
    )
    parser.add_argument("--version", action="version", version=_package_version())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in _registrations():
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    return handler(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
