"""The command line's contract with scripts: exit codes, error codes, and how errors print.

Exit codes (one home, documented in the README and ADR 0031):

- ``0`` SUCCESS: the command did what was asked; a run released as SUCCESS.
- ``1`` ERROR: the command could not do it (a store unavailable, an unknown run, a run that
  does not verify, a port in use).
- ``2`` USAGE: the arguments or the settings are wrong (argparse uses 2 as well).
- ``3`` FALLBACK, ``4`` FAILED, ``5`` CANCELLED: a run was released with that outcome.
- ``141``: standard output's reader went away (see ``main.py``).

Under ``--json`` an error is one JSON object on standard output, ``{"error": {"code",
"message"}}``, with the same exit code; otherwise it is one line on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, assert_never

from factledger.domain.status import ReleaseOutcome

if TYPE_CHECKING:
    from factledger.adapters.audit.wiring import AuditOpenFailure

__all__ = ["CliError", "ExitCode", "exit_for", "fail", "fail_audit_open", "wants_json"]


class ExitCode(IntEnum):
    """What the process's exit status says."""

    SUCCESS = 0
    ERROR = 1
    USAGE = 2
    FALLBACK = 3
    FAILED = 4
    CANCELLED = 5
    PIPE_CLOSED = 141


class CliError(StrEnum):
    """The stable code of an error a command prints."""

    INVALID_SETTINGS = "INVALID_SETTINGS"
    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
    AUDIT_UNAVAILABLE = "AUDIT_UNAVAILABLE"
    RUN_NOT_IN_LOG = "RUN_NOT_IN_LOG"
    UNKNOWN_RUN = "UNKNOWN_RUN"
    NOT_VERIFIED = "NOT_VERIFIED"
    NOT_FOUND = "NOT_FOUND"
    PORT_IN_USE = "PORT_IN_USE"
    FAILED = "FAILED"


def exit_for(outcome: ReleaseOutcome) -> ExitCode:
    """The exit code of a command whose run was released with ``outcome``."""
    match outcome:
        case ReleaseOutcome.SUCCESS:
            return ExitCode.SUCCESS
        case ReleaseOutcome.FALLBACK:
            return ExitCode.FALLBACK
        case ReleaseOutcome.FAILED:
            return ExitCode.FAILED
        case ReleaseOutcome.CANCELLED:
            return ExitCode.CANCELLED
        case _:  # pragma: no cover - exhaustive
            assert_never(outcome)


def wants_json(args: argparse.Namespace) -> bool:
    """True when the command was asked for JSON."""
    return bool(getattr(args, "json", False))


def fail(
    args: argparse.Namespace,
    command: str,
    code: CliError,
    message: str,
    exit_code: ExitCode = ExitCode.ERROR,
) -> int:
    """Print an error the way the command's output is asked for; returns the exit code."""
    if wants_json(args):
        print(json.dumps({"error": {"code": code.value, "message": message}}))
    else:
        print(f"factledger {command}: {message}", file=sys.stderr)
    return int(exit_code)


def fail_audit_open(args: argparse.Namespace, command: str, failure: AuditOpenFailure) -> int:
    """Print why the audit database could not be opened: an unsupported ``audit.url`` is a
    usage error, anything else an unavailable store."""
    usage = failure.reason == "UNSUPPORTED_URL"
    return fail(
        args,
        command,
        CliError.INVALID_SETTINGS if usage else CliError.STORE_UNAVAILABLE,
        failure.message,
        ExitCode.USAGE if usage else ExitCode.ERROR,
    )
