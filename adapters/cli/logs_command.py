"""``factledger logs``: what the model would see of log files, and their templates.

* ``factledger logs project PATH... [--service S] [--query Q] [--start T] [--end T] --json``
  prints the model observation the ``query_logs`` tool would produce over these files (the
  embedded file backend, then the projector, then the model-visible keys only). Each PATH is
  searched as the tool searches its configured folder, whatever its name (a folder such as
  ``.factledger/demo/logs`` included): a folder's files take their service from the first
  folder below it or their own name, a file given by name is read as it is.
* ``factledger logs mine PATH --jsonl`` prints one JSON object per input line:
  ``{"line": N, "template_id": ..., "template": ...}`` (N from 1; a continuation line gets
  the template of the record it belongs to).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from returns.result import Failure, Success

from factledger.adapters.cli.contract import CliError, ExitCode, fail
from factledger.adapters.cli.progress import Bar, draws_bars, progress
from factledger.adapters.logs.file_backend import FileLogBackend
from factledger.domain.json_types import JsonObject
from factledger.domain.logs.agent_result import MODEL_VISIBLE_KEYS
from factledger.domain.logs.line_format import assemble_records
from factledger.domain.logs.mining import mine_templates
from factledger.domain.logs.projector import project_logs
from factledger.domain.logs.query import DEFAULT_LIMIT, LogQuery
from factledger.domain.logs.templates import fingerprint

__all__ = ["register"]

_DEFAULT_TIMEOUT_SECONDS = 60.0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("logs", help="project or mine log files")
    commands = parser.add_subparsers(dest="logs_command", metavar="LOGS_COMMAND")
    commands.required = True

    project = commands.add_parser(
        "project", help="print the observation the query_logs tool would give the model"
    )
    project.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="files or folders")
    project.add_argument("--service", help="only records of this service")
    project.add_argument("--query", help="only records holding every term (case ignored)")
    project.add_argument("--start", help="only records at or after this ISO-8601 instant")
    project.add_argument("--end", help="only records at or before this ISO-8601 instant")
    project.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help="records at most")
    project.add_argument(
        "--timeout", type=float, default=_DEFAULT_TIMEOUT_SECONDS, help="seconds for the scan"
    )
    project.add_argument(
        "--tool-call-id", default="cli-logs-project", help="id shown in the observation"
    )
    project.add_argument("--json", action="store_true", help="print one JSON object")
    project.set_defaults(handler=_project)

    mine = commands.add_parser("mine", help="print the template of every line of a file")
    mine.add_argument("path", type=Path, metavar="PATH", help="a log file")
    mine.add_argument(
        "--json", "--jsonl", dest="json", action="store_true", help="one JSON object per line"
    )
    mine.set_defaults(handler=_mine)


def _project(args: argparse.Namespace) -> int:
    missing = [str(path) for path in args.paths if not path.exists()]
    if missing:
        message = f"no such file or folder: {', '.join(missing)}"
        return fail(args, "logs", CliError.NOT_FOUND, message, ExitCode.USAGE)
    request = LogQuery.from_request(args.service, args.query, args.start, args.end, args.limit)
    if isinstance(request, Failure):
        message = f"invalid query: {request.failure().reason}"
        return fail(args, "logs", CliError.INVALID_ARGUMENT, message, ExitCode.USAGE)
    query = request.unwrap()
    backend = FileLogBackend(Path.cwd(), files=[path.resolve() for path in args.paths])
    observation: JsonObject = {"tool_call_id": args.tool_call_id}
    with _file_bar(args) as on_file:
        outcome = backend.query(query, deadline=time.monotonic() + args.timeout, on_file=on_file)
    if isinstance(outcome, Failure):
        failure = outcome.failure()
        observation.update({"status": "ERROR", "error_code": failure.kind.value})
        if failure.reason is not None:
            observation["reason"] = failure.reason
        return _emit(observation, 1)
    projected = project_logs(outcome.unwrap(), query)
    if not isinstance(projected, Success):
        observation.update({"status": "ERROR", "error_code": "PROJECTION_ERROR"})
        observation["reason"] = projected.failure().reason
        return _emit(observation, 1)
    result = projected.unwrap()
    observation["status"] = "READY"
    observation["evidence_status"] = result.evidence_status.value
    for key in MODEL_VISIBLE_KEYS:
        observation[key] = result.agent_result[key]
    return _emit(observation, 0)


@contextmanager
def _file_bar(args: argparse.Namespace) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar over the files of a multi-file scan (on a terminal, never in --json)."""
    if not draws_bars(args):
        yield None
        return
    state: dict[str, Bar] = {}
    with ExitStack() as stack:

        def on_file(_done: int, total: int) -> None:
            if "bar" not in state:
                state["bar"] = stack.enter_context(progress(args, "scanning files", total))
            state["bar"].advance()

        yield on_file


def _emit(observation: JsonObject, code: int) -> int:
    sys.stdout.write(json.dumps(observation, ensure_ascii=False, indent=2) + "\n")
    return code


def _mine(args: argparse.Namespace) -> int:
    path: Path = args.path
    if not path.is_file():
        return fail(args, "logs", CliError.NOT_FOUND, f"no such file: {path}", ExitCode.USAGE)
    with path.open(encoding="utf-8", errors="replace") as handle:
        records = list(assemble_records(handle))
    templates = mine_templates(record.message for record in records)
    out = sys.stdout
    for record, template in zip(records, templates, strict=True):
        template_id = fingerprint(template)
        for number in range(record.first_line, record.last_line + 1):
            out.write(
                json.dumps(
                    {"line": number, "template_id": template_id, "template": template},
                    ensure_ascii=False,
                )
                + "\n"
            )
    return 0
