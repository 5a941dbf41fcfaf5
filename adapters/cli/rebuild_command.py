"""``factledger rebuild``: drop and rebuild projections from the event log.

- ``rebuild``: every projection (``audit`` rows, run ``retention`` expiries) is replayed from
  the start of every partition log; each run whose first event the log still holds gets its
  rows replaced, so deleting every audit row and rebuilding restores them exactly, and
  rebuilding twice gives the same rows. Rows of runs the log no longer holds (past retention)
  are kept: they are all that is left of those runs.
- ``rebuild --run RUN_ID``: one run's audit rows, from its own stream.
- ``--projection NAME``: only that projection.

On a terminal it draws a progress bar on stderr and prints a short summary; otherwise (or
with ``--json``) it prints one JSON summary. Exit codes: 0 done, 1 the audit database or the
event store was unavailable (what was committed stays; run it again), or the run is not in
the log; 2 a settings error.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Final, TextIO

from returns.result import Success

from factledger.adapters.audit.wiring import AuditRuntime, open_audit
from factledger.adapters.bootstrap import build_stores
from factledger.adapters.cli.contract import CliError, ExitCode, fail, fail_audit_open
from factledger.adapters.cli.progress import progress
from factledger.adapters.config.settings import SettingsError, load_settings
from factledger.adapters.logging_setup import logger
from factledger.adapters.system import SystemClock
from factledger.application.projections.projector import (
    CatchUpReport,
    PartitionReport,
    Projector,
    RunNotInLog,
    RunRebuilt,
    rebuild_run,
)
from factledger.domain.event_catalog import default_codec
from factledger.domain.json_types import JsonObject
from factledger.ports.audit import AUDIT_PROJECTION, EXPIRY_PROJECTION, AuditUnavailable
from factledger.ports.event_store import EventStore
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["register"]

_NAMES: Final = (AUDIT_PROJECTION, EXPIRY_PROJECTION)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "rebuild", help="drop and rebuild projections (audit rows) from the event log"
    )
    parser.add_argument("--run", metavar="RUN_ID", help="rebuild one run's audit rows only")
    parser.add_argument(
        "--projection", choices=_NAMES, help="rebuild this projection only (default: all)"
    )
    parser.add_argument(
        "--config", type=Path, metavar="FILE", help="settings file (default: lookup order)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    parser.set_defaults(handler=_handle)


def _rebuild_projection(
    args: argparse.Namespace, projector: Projector
) -> CatchUpReport | AuditUnavailable | StoreUnavailable:
    reports: list[PartitionReport] = []
    started = time.perf_counter()
    applied = 0
    with progress(args, f"{projector.name:<9} partitions", projector.partitions) as bar:

        def batch(_partition: int, events: int) -> None:
            nonlocal applied
            applied += events
            rate = applied / max(time.perf_counter() - started, 1e-9)
            bar.note(f"{applied:,} events  {rate:,.0f}/s")

        for partition in range(projector.partitions):
            outcome = projector.rebuild((partition,), progress=batch)
            if not isinstance(outcome, CatchUpReport):
                return outcome
            reports.extend(outcome.partitions)
            bar.advance()
    return CatchUpReport(tuple(reports))


def _summary(name: str, report: CatchUpReport, seconds: float) -> JsonObject:
    return {
        "projection": name,
        "partitions": len(report.partitions),
        "events": report.events,
        "rows": report.rows,
        "seconds": round(seconds, 3),
        "events_per_second": round(report.events / seconds) if seconds > 0 else None,
    }


def _failure(outcome: AuditUnavailable | StoreUnavailable | RunNotInLog) -> JsonObject:
    if isinstance(outcome, RunNotInLog):
        return _error(CliError.RUN_NOT_IN_LOG, f"the log holds no run {outcome.run_id!r}")
    if isinstance(outcome, AuditUnavailable):
        return _error(CliError.AUDIT_UNAVAILABLE, f"the audit is unavailable ({outcome.reason})")
    return _error(CliError.STORE_UNAVAILABLE, f"the store is unavailable ({outcome.reason})")


def _error(code: CliError, message: str) -> JsonObject:
    return {"error": {"code": code.value, "message": message}}


def _rebuild(
    args: argparse.Namespace, events: EventStore, audit: AuditRuntime
) -> tuple[JsonObject, int]:
    if args.run is not None:
        if args.projection == EXPIRY_PROJECTION:
            return _error(CliError.INVALID_ARGUMENT, "--run rebuilds the audit projection only"), 2
        started = time.perf_counter()
        done = rebuild_run(events, audit.store, default_codec(), args.run)
        if not isinstance(done, RunRebuilt):
            return _failure(done), 1
        return {
            "projection": AUDIT_PROJECTION,
            "run_id": done.run_id,
            "events": done.events,
            "rows": done.rows,
            "seconds": round(time.perf_counter() - started, 3),
        }, 0
    chosen = [p for p in audit.projectors if args.projection in (None, p.name)]
    summaries: list[JsonObject] = []
    for projector in chosen:
        started = time.perf_counter()
        outcome = _rebuild_projection(args, projector)
        if not isinstance(outcome, CatchUpReport):
            return _failure(outcome), 1
        summary = _summary(projector.name, outcome, time.perf_counter() - started)
        logger().info("projection.rebuilt", **summary)
        summaries.append(summary)
    return {"rebuilt": list(summaries)}, 0


def _print_text(summary: JsonObject, stream: TextIO) -> None:
    if "run_id" in summary:
        print(
            f"run {summary['run_id']}: {summary['events']} events → {summary['rows']} audit rows",
            file=stream,
        )
        return
    rebuilt = summary.get("rebuilt")
    for item in rebuilt if isinstance(rebuilt, list) else []:
        if isinstance(item, dict):
            print(
                f"{item['projection']}: {item['events']} events → {item['rows']} rows "
                f"in {item['seconds']} s over {item['partitions']} partitions",
                file=stream,
            )


def _handle(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.config)
        clock = SystemClock()
        events, _, close_store = build_stores(settings, clock)
    except SettingsError as error:
        return fail(args, "rebuild", CliError.INVALID_SETTINGS, str(error), ExitCode.USAGE)
    try:
        opened = open_audit(settings, events, clock)
        if not isinstance(opened, Success):
            return fail_audit_open(args, "rebuild", opened.failure())
        audit: AuditRuntime = opened.unwrap()
        try:
            summary, code = _rebuild(args, events, audit)
        finally:
            audit.close()
    finally:
        close_store()
    failed = summary.get("error")
    if isinstance(failed, dict):
        code_text, message = str(failed.get("code")), str(failed.get("message"))
        return fail(args, "rebuild", CliError(code_text), message, ExitCode(code))
    if args.json or not sys.stdout.isatty():
        print(json.dumps(summary, sort_keys=True))
    else:
        _print_text(summary, sys.stdout if code == 0 else sys.stderr)
    return code
