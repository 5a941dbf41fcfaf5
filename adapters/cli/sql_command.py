"""``factledger sql check``: test a datasource's policy offline.

Reads JSON lines ``{"sql": "..."}`` on stdin and writes one JSON line per input:
``{"verdict": "ACCEPT" | "REJECT", "reason": <refusal code or null>, "sql": <the SQL the
engine would run, or null>}``. Works for MySQL/MariaDB, PostgreSQL and SQLite datasources.
``NOW()`` and its kin are bound to ``--now`` (ISO 8601 with an offset; the current time,
to the second, by default). Nothing connects to a database, so the cost gate (the engine's
EXPLAIN) is not applied here. A line that is not such an object is answered with ``REJECT``
and the reason ``MALFORMED_INPUT``; blank lines are skipped.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import TextIO

from returns.result import Failure

from factledger.adapters.cli.contract import CliError, ExitCode, fail
from factledger.adapters.config.sql import load_sql_settings
from factledger.adapters.sql.policy import policy_from_settings
from factledger.adapters.system import SystemClock
from factledger.domain.json_types import JsonObject
from factledger.domain.sql.policy import SqlPolicy
from factledger.domain.sql.validator import validate_sql

__all__ = ["check_lines", "register"]

MALFORMED_INPUT = "MALFORMED_INPUT"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("sql", help="the read-only SQL tool")
    commands = parser.add_subparsers(dest="sql_command", metavar="COMMAND", required=True)
    check = commands.add_parser(
        "check",
        help="validate queries (JSON lines on stdin) against a datasource's policy",
        description=(
            'Reads JSON lines {"sql": ...} on stdin; writes one JSON line per input with the '
            "verdict, the reason code and the regenerated SQL. Never connects to a database."
        ),
    )
    check.add_argument("--config", required=True, type=Path, metavar="FILE")
    check.add_argument("--datasource", required=True, metavar="NAME")
    check.add_argument(
        "--now",
        type=_instant,
        default=None,
        metavar="INSTANT",
        help="the instant NOW() is bound to, e.g. 2024-05-01T11:00:00+00:00 (default: now)",
    )
    check.add_argument(
        "--json", action="store_true", help="errors as JSON too (verdicts are always JSON lines)"
    )
    check.set_defaults(handler=_check)


def _instant(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not an ISO 8601 instant") from None
    if moment.tzinfo is None:
        raise argparse.ArgumentTypeError("the instant needs a UTC offset (+00:00)")
    return moment


def _check(args: argparse.Namespace) -> int:
    loaded = load_sql_settings(args.config)
    if isinstance(loaded, Failure):
        message = "; ".join(loaded.failure())
        return fail(args, "sql", CliError.INVALID_SETTINGS, message, ExitCode.USAGE)
    settings = loaded.unwrap()
    now = args.now or SystemClock().now().replace(microsecond=0)
    for datasource in settings.datasources:
        if datasource.name == args.datasource:
            check_lines(policy_from_settings(datasource), sys.stdin, sys.stdout, now)
            return 0
    names = ", ".join(d.name for d in settings.datasources) or "none configured"
    message = f"sql.datasources: no datasource named {args.datasource!r} ({names})"
    return fail(args, "sql", CliError.INVALID_SETTINGS, message, ExitCode.USAGE)


def check_lines(
    policy: SqlPolicy, source: TextIO, sink: TextIO, now: datetime | None = None
) -> None:
    """Answer every JSON line of ``source`` on ``sink`` (``NOW()`` bound to ``now``)."""
    for line in source:
        if not line.strip():
            continue
        sink.write(json.dumps(_verdict(policy, line, now), ensure_ascii=False) + "\n")
        sink.flush()


def _verdict(policy: SqlPolicy, line: str, now: datetime | None) -> JsonObject:
    try:
        request = json.loads(line)
    except ValueError:
        request = None
    if not isinstance(request, dict) or set(request) != {"sql"}:
        return _reject(MALFORMED_INPUT)
    sql = request["sql"]
    if not isinstance(sql, str):
        return _reject(MALFORMED_INPUT)
    result = validate_sql(policy, sql, now)
    if isinstance(result, Failure):
        return _reject(result.failure().code.value)
    return {"verdict": "ACCEPT", "reason": None, "sql": result.unwrap().sql}


def _reject(reason: str) -> JsonObject:
    return {"verdict": "REJECT", "reason": reason, "sql": None}
