"""A run driven through the interceptor with a knowledge backend that counts its searches and
can be held mid-call, on the memory, SQLite or Redis store, with a hand-set clock or the real one.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from attrs import define, field
from returns.result import Failure, Result, Success

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import BudgetSettings, StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.memory.clock import ManualClock
from factledger.application.interceptor import Observed
from factledger.application.run_repository import StoreFailed
from factledger.application.run_service import StartedRun
from factledger.application.tools.knowledge import KnowledgeTool
from factledger.domain.json_types import JsonObject
from factledger.domain.knowledge.raw_format import RawKnowledgeHit, encode_raw_result
from factledger.domain.knowledge.relevance import RelevanceLevel
from factledger.domain.run_events import DiagnosisContext
from factledger.domain.run_log import RunLog
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from factledger.ports.clock import Clock

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)
NOTHING = "zzqx vvwk"
"""A query the counting backend finds nothing for."""


@define
class CountingBackend:
    """A knowledge backend that counts its searches; it may fail, or wait until released."""

    searches: int = 0
    fail: bool = False
    hold: threading.Event | None = None
    entered: threading.Event = field(factory=threading.Event)
    lock: threading.Lock = field(factory=threading.Lock)

    def search(self, query: str, limit: int, timeout_seconds: float) -> Result[str, BackendFailure]:
        with self.lock:
            self.searches += 1
        self.entered.set()
        if self.hold is not None:
            self.hold.wait(timeout=30)
        if self.fail:
            return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "INDEX_GONE"))
        if NOTHING in query:
            return Success(encode_raw_result(query, ()))
        hit = RawKnowledgeHit(
            document_id="rb-1",
            title="Runbook",
            section="Symptoms",
            chunk_id="rb-1#0",
            text=f"Notes about {query}.",
            score=3.0,
            relevance_level=RelevanceLevel.HIGH,
        )
        return Success(encode_raw_result(query, (hit,)))


def envelope(query: str, *evaluations: tuple[str, str], as_list: bool = False) -> JsonObject:
    """A ``lookup_knowledge`` envelope; several evaluations (or ``as_list``) make a list."""
    items: list[JsonObject] = [{"tool_call_id": i, "evaluation": e} for i, e in evaluations]
    previous: object = None
    if as_list or len(items) > 1:
        previous = items
    elif items:
        previous = items[0]
    return {"previous_observation": previous, "input": {"query": query}}  # type: ignore[dict-item]


def args(query: str, *evaluations: tuple[str, str], as_list: bool = False) -> str:
    """The arguments text of a ``lookup_knowledge`` call."""
    return json.dumps(envelope(query, *evaluations, as_list=as_list))


@define
class CallWorld:
    """One run, its runtime and its counting backend."""

    runtime: Runtime
    backend: CountingBackend
    run_id: str

    def call(self, tool_call_id: str, arguments: str, step: int | None = None) -> JsonObject:
        handled = self.runtime.interceptor.handle(
            self.run_id, tool_call_id, "lookup_knowledge", arguments, step=step
        )
        assert isinstance(handled, Observed), handled
        return handled.observation

    def log(self) -> RunLog:
        loaded = self.runtime.runs.load(self.run_id)
        assert not isinstance(loaded, StoreFailed), loaded
        return loaded

    def event_types(self) -> list[str]:
        events = self.runtime.runs.events(self.run_id)
        assert not isinstance(events, StoreFailed), events
        return [item.event.TYPE for item in events]


def store_settings(
    kind: str, *, path: str = "", redis_url: str = "", prefix: str = "fl"
) -> StoreSettings:
    """The ``[store]`` section of one kind."""
    if kind == "redis":
        return StoreSettings(kind="redis", url=redis_url, key_prefix=prefix, partitions=4)
    if kind == "sqlite":
        return StoreSettings(kind="sqlite", path=path, partitions=4)
    return StoreSettings(kind="memory")


def call_settings(store: StoreSettings, **budget: float) -> Settings:
    """Settings on ``store`` with some ``[budget]`` keys set."""
    return Settings(store=store, budget=BudgetSettings(**budget))


@contextmanager
def call_world(
    settings: Settings,
    *,
    clock: Clock | None = None,
    backend: CountingBackend | None = None,
    run_id: str | None = None,
) -> Iterator[CallWorld]:
    """A runtime with the counting knowledge tool and one started run (or ``run_id``)."""
    runtime = build_runtime(settings, clock=clock)
    counting = backend or CountingBackend()
    runtime.registry.register(KnowledgeTool(counting))
    try:
        if run_id is None:
            started = runtime.run_service.start(
                budget=runtime.budget,
                tools=runtime.registry.grants,
                context=DiagnosisContext("checkout"),
                progress=runtime.progress_policy,
            )
            assert isinstance(started, StartedRun), started
            run_id = started.run_id
        yield CallWorld(runtime, counting, run_id)
    finally:
        runtime.close()


def manual_clock() -> ManualClock:
    """A clock at ``T0``."""
    return ManualClock(T0)
