"""``factledger worker``: the long-running process that keeps the promises the stores make.

It follows the partition logs (the audit rows and the run expiries stay caught up), and the
worker holding the maintenance lease runs the retention sweep and purges expired vault
bodies, compacting the store so no body outlives its expiry by more than ``[worker]
purge_interval_seconds`` on disk. Start one or several (they split the partitions with
leases; a killed worker's partitions are taken over once its leases lapse). SIGTERM or
SIGINT ends it cleanly: the batch in hand is finished, the leases are given up and a STOPPED
health record is written; it then exits 0.

Output: one line per notable event (started, purged, swept, failed, stopped); JSON lines with
``--json``. Exit codes: 0 stopped cleanly; 1 the audit database cannot be opened; 2 a
settings error, or a store kind a separate process cannot serve (``memory``).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from returns.result import Success

from factledger.adapters.audit.worker_wiring import WorkerRuntime, build_worker
from factledger.adapters.bootstrap import build_stores
from factledger.adapters.cli.contract import CliError, ExitCode, fail, fail_audit_open
from factledger.adapters.config.settings import Settings, SettingsError, load_settings
from factledger.adapters.system import SystemClock
from factledger.application.worker.notices import WorkerNotice, notice_json

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "worker",
        help="keep the audit caught up, run retention, purge and compact the vault",
    )
    parser.add_argument(
        "--config", type=Path, metavar="FILE", help="settings file (default: lookup order)"
    )
    parser.add_argument("--owner", metavar="NAME", help="this worker's name (default host:pid)")
    parser.add_argument("--once", action="store_true", help="one turn and every job, then exit")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.set_defaults(handler=_handle)


def _printer(as_json: bool, stream: TextIO) -> Callable[[WorkerNotice], None]:
    def show(notice: WorkerNotice) -> None:
        fields = notice_json(notice)
        if as_json:
            line = json.dumps(fields, sort_keys=True)
        else:
            event = fields.pop("event")
            line = f"worker {event}: " + " ".join(f"{k}={v}" for k, v in sorted(fields.items()))
        print(line, file=stream, flush=True)

    return show


_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def _stop_on_signals(stop: threading.Event) -> list[object]:
    """Make SIGTERM and SIGINT set ``stop``; returns the handlers they had."""

    def handle(_signum: int, _frame: object) -> None:
        stop.set()

    return [signal.signal(number, handle) for number in _SIGNALS]


def _restore(previous: list[object]) -> None:
    for number, handler in zip(_SIGNALS, previous, strict=True):
        signal.signal(number, handler)  # type: ignore[arg-type]  # what signal.signal returned


def _settings(config: Path | None) -> Settings | str:
    try:
        settings = load_settings(config)
    except SettingsError as error:
        return str(error)
    if settings.store.kind == "memory":
        return (
            "store.kind: the in-memory store lives inside one process; a worker process "
            "cannot see it (use sqlite or redis, or run the worker in that process)"
        )
    return settings


def _handle(args: argparse.Namespace) -> int:
    stop = threading.Event()
    previous = _stop_on_signals(stop)
    try:
        return _serve(args, stop)
    finally:
        _restore(previous)


def _serve(args: argparse.Namespace, stop: threading.Event) -> int:
    settings = _settings(args.config)
    if isinstance(settings, str):
        return fail(args, "worker", CliError.INVALID_SETTINGS, settings, ExitCode.USAGE)
    clock = SystemClock()
    try:
        events, vault, close_store = build_stores(settings, clock)
    except SettingsError as error:
        return fail(args, "worker", CliError.INVALID_SETTINGS, str(error), ExitCode.USAGE)
    try:
        show = _printer(args.json, sys.stdout)
        built = build_worker(settings, events, vault, clock, owner=args.owner, notify=show)
        if not isinstance(built, Success):
            return fail_audit_open(args, "worker", built.failure())
        runtime: WorkerRuntime = built.unwrap()
        try:
            runtime.worker.run(stop, steps=1 if args.once else None)
        finally:
            runtime.close()
    finally:
        close_store()
    return 0
