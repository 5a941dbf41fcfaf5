"""``factledger sql check``: test a datasource's policy offline.

Reads JSON lines ``{"sql": "..."}`` on stdin and writes one JSON line per input:
``{"verdict": "ACCEPT" | "REJECT", "reason": <refusal code or null>, "sql": <regenerated SQL
or null>}``. Nothing connects to a database. A line that is not such an object is answered
with ``REJECT`` and the reason ``MALFORMED_INPUT``; blank lines are skipped.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from returns.result import Failure

from factledger.adapters.config.sql import load_sql_settings
from factledger.adapters.sql.policy import policy_from_settings
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
    check.set_defaults(handler=_check)


def _check(args: argparse.Namespace) -> int:
    loaded = load_sql_settings(args.config)
    if isinstance(loaded, Failure):
        for line in loaded.failure():
            print(line, file=sys.stderr)
        return 2
    settings = loaded.unwrap()
    for datasource in settings.datasources:
        if datasource.name == args.datasource:
            check_lines(policy_from_settings(datasource), sys.stdin, sys.stdout)
            return 0
    names = ", ".join(d.name for d in settings.datasources) or "none configured"
    print(f"sql.datasources: no datasource named {args.datasource!r} ({names})", file=sys.stderr)
    return 2


def check_lines(policy: SqlPolicy, source: TextIO, sink: TextIO) -> None:
    """Answer every JSON line of ``source`` on ``sink``."""
    for line in source:
        if not line.strip():
            continue
        sink.write(json.dumps(_verdict(policy, line), ensure_ascii=False) + "\n")
        sink.flush()


def _verdict(policy: SqlPolicy, line: str) -> JsonObject:
    try:
        request = json.loads(line)
    except ValueError:
        request = None
    if not isinstance(request, dict) or set(request) != {"sql"}:
        return _reject(MALFORMED_INPUT)
    sql = request["sql"]
    if not isinstance(sql, str):
        return _reject(MALFORMED_INPUT)
    result = validate_sql(policy, sql)
    if isinstance(result, Failure):
        return _reject(result.failure().code.value)
    return {"verdict": "ACCEPT", "reason": None, "sql": result.unwrap().sql}


def _reject(reason: str) -> JsonObject:
    return {"verdict": "REJECT", "reason": reason, "sql": None}
