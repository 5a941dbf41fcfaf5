"""Functions run in separate worker processes by the SQLite concurrency tests.

Each opens the store file through the production composition root, as a real worker process
would, and returns only plain values.
"""

from __future__ import annotations

import threading

from returns.result import Success

from factledger.adapters.bootstrap import Runtime, build_runtime, build_stores
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.system import SystemClock
from factledger.application.run_service import StartedRun
from factledger.domain.budget import RunBudget
from factledger.domain.chain import GENESIS
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from factledger.ports.event_store import Appended, SequenceConflict
from tests.contracts.store_contract import request_after
from tests.support.workers import call_once


def sqlite_settings(path: str) -> Settings:
    """Settings for the store file at ``path``."""
    return Settings(store=StoreSettings(kind="sqlite", path=path, partitions=4))


def sqlite_runtime(path: str) -> Runtime:
    """A runtime on the store file, wired exactly as production wires it."""
    return build_runtime(sqlite_settings(path))


def race_appends(
    path: str, run_id: str, worker: int, attempts: int, barrier: threading.Barrier
) -> list[int]:
    """Try ``attempts`` times to append one event on the head just read; return the
    sequences this worker won. Anything but a win or a conflict fails the worker."""
    store, _, close = build_stores(sqlite_settings(path), SystemClock())
    won: list[int] = []
    try:
        barrier.wait(timeout=60)
        for attempt in range(attempts):
            read = store.read_head(run_id)
            assert isinstance(read, Success), read
            head = read.unwrap() or GENESIS
            outcome = store.append(request_after(run_id, head, 1, f"w{worker}-{attempt}"))
            if isinstance(outcome, Appended):
                won.append(outcome.head.sequence)
            else:
                assert isinstance(outcome, SequenceConflict), outcome
        return won
    finally:
        close()


def call_many(
    path: str, run_id: str, tool_call_ids: list[str], barrier: threading.Barrier
) -> list[str]:
    """Call each id in order as fast as possible, after every worker is ready."""
    runtime = sqlite_runtime(path)
    try:
        barrier.wait(timeout=60)
        return [call_once(runtime, run_id, tool_call_id) for tool_call_id in tool_call_ids]
    finally:
        runtime.close()


def record_run(path: str, calls: int) -> str:
    """Start a run, make ``calls`` tool calls and cancel it; return its id."""
    runtime = sqlite_runtime(path)
    try:
        started = runtime.run_service.start(
            budget=RunBudget(),
            tools=(ToolGrant("lookup_knowledge", True),),
            context=DiagnosisContext("payments"),
        )
        assert isinstance(started, StartedRun), started
        for index in range(calls):
            assert call_once(runtime, started.run_id, f"call-{index}") == "READY"
        runtime.run_service.cancel(started.run_id)
        return started.run_id
    finally:
        runtime.close()


def listed_runs(path: str) -> list[str]:
    """The run ids the store lists, newest first."""
    store, _, close = build_stores(sqlite_settings(path), SystemClock())
    try:
        listed = store.list_runs(100)
        assert isinstance(listed, Success), listed
        return [entry.run_id for entry in listed.unwrap()]
    finally:
        close()
