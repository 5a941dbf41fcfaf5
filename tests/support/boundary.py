"""A ToolBoundary on the embedded store with controllable time, ids and store faults."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime

from attrs import define, field
from returns.result import Failure, Result, Success

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.memory.clock import ManualClock, SequentialIdFactory
from factledger.adapters.memory.faults import FaultyEventStore
from factledger.application.run_repository import StoreFailed
from factledger.application.run_service import StartedRun
from factledger.application.tool_call import (
    RunContext,
    ToolBoundaryResult,
    ToolCallRequestEnvelope,
)
from factledger.domain.budget import RunBudget
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import (
    BackendFailure,
    ProjectedToolResult,
    ProjectionFailure,
)
from factledger.ports.event_store import EventStore

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)
GRANTS = (ToolGrant("lookup_knowledge", True), ToolGrant("writer", False))


@define
class Backend:
    """A scripted backend that records whether it ran."""

    raw: str = '{"evidence": [{"id": "doc-1"}]}'
    failure: BackendFailure | None = None
    raises: Exception | None = None
    hang_until: threading.Event | None = None
    """When set, the backend blocks until the test releases it (never a fixed sleep)."""
    during: Callable[[], None] | None = None
    calls: int = 0
    lock: threading.Lock = field(factory=threading.Lock)

    def __call__(self, timeout_seconds: float) -> Result[str, BackendFailure]:
        with self.lock:
            self.calls += 1
        if self.during is not None:
            self.during()
        if self.hang_until is not None:
            self.hang_until.wait(60)
        if self.raises is not None:
            raise self.raises
        if self.failure is not None:
            return Failure(self.failure)
        return Success(self.raw)


def found(raw: str) -> Result[ProjectedToolResult, ProjectionFailure]:
    """A projector that keeps the raw text as content and finds evidence."""
    return Success(ProjectedToolResult({"content": raw}, EvidenceStatus.EVIDENCE_FOUND))


@define
class Harness:
    """A runtime whose store can fail on demand."""

    runtime: Runtime
    clock: ManualClock
    faults: FaultyEventStore

    def start(self, budget: RunBudget | None = None, grants: tuple[ToolGrant, ...] = GRANTS) -> str:
        started = self.runtime.run_service.start(
            budget=budget or RunBudget(), tools=grants, context=DiagnosisContext("payments")
        )
        assert isinstance(started, StartedRun), started
        return started.run_id

    def call(
        self,
        run_id: str,
        tool_call_id: str = "call-1",
        *,
        backend: Backend | None = None,
        projector: Callable[[str], Result[ProjectedToolResult, ProjectionFailure]] = found,
        tool_name: str = "lookup_knowledge",
        arguments: str = '{"query": "timeouts"}',
        envelope_run_id: str | None = None,
        authorized: bool = True,
        read_only: bool = True,
        isolated: bool = True,
    ) -> ToolBoundaryResult:
        envelope = ToolCallRequestEnvelope(
            run_id=envelope_run_id or run_id,
            tool_call_id=tool_call_id,
            tool_name=tool_name,
            arguments_json=arguments,
            authorized=authorized,
            read_only=read_only,
        )
        return self.runtime.boundary.invoke(
            RunContext(run_id, step=1),
            envelope,
            backend or Backend(),
            projector,
            isolated=isolated,
        )

    def log(self, run_id: str) -> RunLog:
        loaded = self.runtime.runs.load(run_id)
        assert not isinstance(loaded, StoreFailed), loaded
        return loaded


def make_harness(settings: Settings | None = None) -> Harness:
    """A harness on the embedded store, the clock at ``T0``."""
    clock = ManualClock(T0)
    holder: list[FaultyEventStore] = []

    def wrap(store: EventStore) -> EventStore:
        faulty = FaultyEventStore(store)
        holder.append(faulty)
        return faulty

    runtime = build_runtime(
        settings or Settings(store=StoreSettings(kind="memory")),
        clock=clock,
        ids=SequentialIdFactory(),
        wrap_store=wrap,
    )
    return Harness(runtime, clock, holder[0])
