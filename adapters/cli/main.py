"""Entry point of the ``factledger`` command.

Each sub-command lives in its own module with a ``register(subparsers)`` function; this module
only lists them. Every handler returns the process exit code.

A command whose output goes to a pipe that closes early (``factledger logs mine FILE | head``)
stops quietly: the write that finds the pipe closed ends the command with exit code 141 (the
shell's code for a command ended by SIGPIPE), nothing more is written to standard output and
no traceback is printed. This is handled here, once, for every command.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence

from factledger.adapters.distribution import installed_version

__all__ = ["PIPE_CLOSED_EXIT", "main"]

PIPE_CLOSED_EXIT = 141
"""Exit code when standard output's reader went away (128 + SIGPIPE, as a shell reports)."""

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


def build_parser() -> argparse.ArgumentParser:
    """The whole argument parser, with every registered sub-command."""
    parser = argparse.ArgumentParser(
        prog="factledger",
        description="A deterministic control boundary around an LLM diagnosis agent.",
    )
    parser.add_argument("--version", action="version", version=installed_version())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in _registrations():
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit code."""
    try:
        return _run(argv)
    except BrokenPipeError:
        _discard_output()
        return PIPE_CLOSED_EXIT


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit:
        sys.stdout.flush()
        raise
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    code = handler(args)
    sys.stdout.flush()
    return code


def _discard_output() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of
    what is still buffered does not fail again on the closed pipe."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
