"""The composition root: the only place that chooses and wires adapters.

Everything the application runs with — serializers, clock, ids, stores — is built here from
``Settings``, and the integration tests build their stores through this same function, so a
wiring that works in unit tests but not in production fails a test.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from attrs import define, field

from factledger.adapters.config.settings import Settings, SettingsError
from factledger.adapters.memory.event_store import MemoryEventStore
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.adapters.redis.connection import connect
from factledger.adapters.redis.event_store import RedisEventStore
from factledger.adapters.redis.keys import RedisKeys
from factledger.adapters.redis.payload_vault import RedisPayloadVault
from factledger.adapters.system import SystemClock, UuidIdFactory
from factledger.application.backend_runner import BackendRunner
from factledger.application.canonical_view import CanonicalViewReader
from factledger.application.run_repository import RunRepository
from factledger.application.run_service import RunService
from factledger.application.tool_boundary import ToolBoundary
from factledger.domain.budget import RunBudget
from factledger.domain.event_catalog import default_codec
from factledger.ports.clock import Clock, IdFactory
from factledger.ports.event_store import EventStore
from factledger.ports.payload_vault import PayloadVault

__all__ = ["Runtime", "build_runtime", "build_stores", "budget_from"]


@define
class Runtime:
    """Everything a transport needs, wired once."""

    settings: Settings
    clock: Clock
    ids: IdFactory
    store: EventStore
    vault: PayloadVault
    runs: RunRepository
    run_service: RunService
    boundary: ToolBoundary
    canonical: CanonicalViewReader
    runner: BackendRunner
    _closers: list[Callable[[], None]] = field(factory=list)

    @property
    def budget(self) -> RunBudget:
        """The per-run budget the settings give."""
        return budget_from(self.settings)

    def close(self) -> None:
        """Release connections and worker threads."""
        self.runner.shutdown()
        while self._closers:
            self._closers.pop()()


def budget_from(settings: Settings) -> RunBudget:
    """The domain budget from the ``[budget]`` section."""
    section = settings.budget
    return RunBudget(
        tool_calls=section.tool_calls,
        request_bytes=section.request_bytes,
        raw_bytes=section.raw_bytes,
        projection_bytes=section.projection_bytes,
        call_raw_bytes=section.call_raw_bytes,
        call_projection_bytes=section.call_projection_bytes,
        record_bytes=section.record_bytes,
        model_calls=section.model_calls,
        model_tokens=section.model_tokens,
        deadline_seconds=section.deadline_seconds,
    )


def build_stores(
    settings: Settings, clock: Clock
) -> tuple[EventStore, PayloadVault, Callable[[], None]]:
    """The event store and payload vault the settings choose, and how to close them."""
    store = settings.store
    match store.kind:
        case "memory":
            vault = MemoryPayloadVault(clock)
            return MemoryEventStore(vault, partitions=store.partitions), vault, _nothing
        case "redis":
            client = connect(store.url)
            keys = RedisKeys(store.key_prefix, store.partitions)
            return RedisEventStore(client, keys), RedisPayloadVault(client, keys), client.close
        case "sqlite":
            raise SettingsError("store.kind: 'sqlite' is not available in this version yet")


def _nothing() -> None:
    return None


def build_runtime(
    settings: Settings,
    *,
    clock: Clock | None = None,
    ids: IdFactory | None = None,
    wrap_store: Callable[[EventStore], EventStore] | None = None,
) -> Runtime:
    """Wire the application from settings. A clock and ids may be given (deterministic
    replays, tests); ``wrap_store`` wraps the event store the settings choose (fault drills)."""
    clock = clock or SystemClock()
    ids = ids or UuidIdFactory()
    store, vault, close_store = build_stores(settings, clock)
    if wrap_store is not None:
        store = wrap_store(store)
    runs = RunRepository(store, default_codec(), clock, ids)
    runner = BackendRunner()
    boundary = ToolBoundary(
        runs,
        clock,
        runner,
        content_ttl=timedelta(seconds=settings.vault.ttl_seconds),
        backend_timeout=timedelta(seconds=settings.budget.call_timeout_seconds),
    )
    return Runtime(
        settings=settings,
        clock=clock,
        ids=ids,
        store=store,
        vault=vault,
        runs=runs,
        run_service=RunService(runs, clock, ids),
        boundary=boundary,
        canonical=CanonicalViewReader(runs, vault, clock),
        runner=runner,
        closers=[close_store],
    )
