"""The composition root: the only place that chooses and wires adapters.

Everything the application runs with — serializers, clock, ids, stores — is built here from
``Settings``, and the integration tests build their stores through this same function, so a
wiring that works in unit tests but not in production fails a test.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path

from attrs import define, field
from returns.result import Success

from factledger.adapters.config.settings import Settings, SettingsError, load_settings
from factledger.adapters.judges.grounding import GroundingJudge
from factledger.adapters.judges.llm import LlmJudge
from factledger.adapters.judges.recorded_repairs import NoRepair
from factledger.adapters.judges.vetoed import VetoedJudge
from factledger.adapters.knowledge.fts_backend import SqliteKnowledgeBackend
from factledger.adapters.logging_setup import configure_logging
from factledger.adapters.logs.file_backend import FileLogBackend
from factledger.adapters.memory.event_store import MemoryEventStore
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.adapters.models.chat_http import ChatClient
from factledger.adapters.redis.connection import connect
from factledger.adapters.redis.event_store import RedisEventStore
from factledger.adapters.redis.keys import RedisKeys
from factledger.adapters.redis.payload_vault import RedisPayloadVault
from factledger.adapters.sql.tool import SqlTool
from factledger.adapters.sqlite.database import OpenFailureReason, Synchronous
from factledger.adapters.sqlite.stores import SqliteStores, open_sqlite_stores
from factledger.adapters.system import SystemClock, UuidIdFactory
from factledger.adapters.tool_plugins import OwnTool, own_tools, register_own_tools
from factledger.application.audit_views import AuditViews
from factledger.application.backend_runner import BackendRunner
from factledger.application.call_replay import CallReplay
from factledger.application.canonical_view import CanonicalViewReader
from factledger.application.harness import Harness, HarnessError, HarnessErrorCode, HarnessParts
from factledger.application.interceptor import Interceptor
from factledger.application.progress_snapshot import SnapshotBuilder
from factledger.application.release.check_service import CheckService
from factledger.application.release.policy import ReleasePolicy
from factledger.application.release.release_service import ReleaseService
from factledger.application.release.wiring import ReleaseParts, wire_release
from factledger.application.run_repository import RunRepository
from factledger.application.run_service import RunService
from factledger.application.tool_boundary import ToolBoundary
from factledger.application.tools.knowledge import KnowledgeTool
from factledger.application.tools.logs import LogsToolSpec
from factledger.application.tools.registry import ToolRegistry
from factledger.application.tools.sql import SqlToolSpec
from factledger.application.verification.run_verifier import RunVerifier
from factledger.domain.budget import RunBudget
from factledger.domain.event_catalog import default_codec
from factledger.domain.progress.policy import ProgressPolicy
from factledger.ports.clock import Clock, IdFactory
from factledger.ports.event_store import EventStore
from factledger.ports.payload_vault import PayloadVault
from factledger.ports.semantic_judge import SemanticJudge
from factledger.ports.telemetry import CallLog

__all__ = [
    "Runtime",
    "budget_from",
    "build_harness",
    "build_runtime",
    "build_stores",
    "release_policy",
    "embedded_harness",
    "harness_from",
]


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
    registry: ToolRegistry
    interceptor: Interceptor
    snapshots: SnapshotBuilder
    releases: ReleaseService
    checks: CheckService
    verifier: RunVerifier
    _closers: list[Callable[[], None]] = field(factory=list)

    @property
    def budget(self) -> RunBudget:
        """The per-run budget the settings give."""
        return budget_from(self.settings)

    @property
    def progress_policy(self) -> ProgressPolicy:
        """The progress thresholds the settings give."""
        section = self.settings.progress
        return ProgressPolicy(
            no_gain_threshold=section.no_gain_threshold,
            protocol_violation_limit=section.protocol_violation_limit,
            max_observed_facts=section.max_observed_facts,
        )

    def add_closer(self, closer: Callable[[], None]) -> None:
        """Close something else with the runtime (opened later, e.g. the audit)."""
        self._closers.append(closer)

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
            return MemoryEventStore(vault, partitions=store.partitions), vault, lambda: None
        case "redis":
            client = connect(store.url, cluster=store.cluster)
            keys = RedisKeys(store.key_prefix, store.partitions)
            return RedisEventStore(client, keys), RedisPayloadVault(client, keys), client.close
        case "sqlite":
            opened = open_sqlite_stores(
                Path(store.path),
                clock,
                partitions=store.partitions,
                synchronous=Synchronous(store.synchronous),
            )
            if not isinstance(opened, Success):
                failure = opened.failure()
                changed = failure.reason is OpenFailureReason.PARTITIONS_CHANGED
                key = "store.partitions" if changed else "store.path"
                raise SettingsError(f"{key}: {failure.describe(store.path)}")
            sqlite: SqliteStores = opened.unwrap()
            return sqlite.events, sqlite.vault, sqlite.close


def build_runtime(
    settings: Settings,
    *,
    tools: Sequence[OwnTool] | None = None,
    clock: Clock | None = None,
    ids: IdFactory | None = None,
    wrap_store: Callable[[EventStore], EventStore] | None = None,
) -> Runtime:
    """Wire the application from settings. ``tools`` are evidence tools of one's own (tools
    and tool providers; the installed ones when None). A clock and ids may be given
    (deterministic replays, tests); ``wrap_store`` wraps the event store the settings choose
    (fault drills)."""
    clock = clock or SystemClock()
    ids = ids or UuidIdFactory()
    store, vault, close_store = build_stores(settings, clock)
    if wrap_store is not None:
        store = wrap_store(store)
    runs = RunRepository(store, default_codec(), clock, ids)
    call_log = configure_logging()
    runner = BackendRunner()
    boundary = build_boundary(settings, runs, clock, runner, call_log)
    closers: list[Callable[[], None]] = [close_store]
    registry = _registry(settings, boundary, closers, tools, clock)
    canonical = CanonicalViewReader(runs, vault, clock)
    run_service = RunService(runs, clock, ids)
    snapshots = SnapshotBuilder(runs, canonical, registry)
    ttl = timedelta(seconds=settings.vault.ttl_seconds)
    verifier = RunVerifier(store, vault, clock, default_codec(), release_ttl=ttl)
    release = wire_release(
        ReleaseParts(runs, run_service, canonical, registry, snapshots, verifier, clock),
        judge=build_judge(settings, closers),
        repairer=NoRepair(),
        policy=release_policy(settings),
        call_log=call_log,
    )
    return Runtime(
        settings=settings,
        clock=clock,
        ids=ids,
        store=store,
        vault=vault,
        runs=runs,
        run_service=run_service,
        boundary=boundary,
        canonical=canonical,
        runner=runner,
        registry=registry,
        interceptor=build_interceptor(settings, registry, runs, canonical, clock),
        snapshots=snapshots,
        releases=release.release,
        checks=release.check,
        verifier=verifier,
        closers=closers,
    )


def release_policy(settings: Settings) -> ReleasePolicy:
    """How hard the release tries, from ``[release]``, ``[judge]`` and ``[vault]``."""
    return ReleasePolicy(
        repair_attempts=settings.release.repair_attempts,
        judge_attempts=settings.judge.attempts,
        judge_timeout_seconds=settings.judge.timeout_seconds,
        check_attempts=settings.release.check_attempts,
        result_ttl=timedelta(seconds=settings.vault.ttl_seconds),
    )


def _registry(
    settings: Settings,
    boundary: ToolBoundary,
    closers: list[Callable[[], None]],
    tools: Sequence[OwnTool] | None,
    clock: Clock,
) -> ToolRegistry:
    """The built-in tools the settings configure, then one's own; what was opened is closed
    again when a tool cannot be registered."""
    registry = ToolRegistry(boundary)
    try:
        register_tools(settings, registry, closers, clock=clock)
        register_own_tools(settings, registry, closers, own_tools(tools))
    except BaseException:
        while closers:
            closers.pop()()
        raise
    return registry


def build_boundary(
    settings: Settings,
    runs: RunRepository,
    clock: Clock,
    runner: BackendRunner,
    call_log: CallLog,
) -> ToolBoundary:
    """The ToolBoundary with the settings' content TTL, backend timeout and abandon grace."""
    return ToolBoundary(
        runs,
        clock,
        runner,
        content_ttl=timedelta(seconds=settings.vault.ttl_seconds),
        backend_timeout=timedelta(seconds=settings.budget.call_timeout_seconds),
        abandon_grace=timedelta(seconds=settings.budget.abandon_grace_seconds),
        call_log=call_log,
    )


def build_interceptor(
    settings: Settings,
    registry: ToolRegistry,
    runs: RunRepository,
    canonical: CanonicalViewReader,
    clock: Clock,
) -> Interceptor:
    """The interceptor, answering retries from the canonical records."""
    wait = timedelta(seconds=settings.budget.retry_wait_seconds)
    replay = CallReplay(runs, canonical, clock, retry_wait=wait)
    return Interceptor(registry, runs, replay=replay, clock=clock)


def build_judge(settings: Settings, closers: list[Callable[[], None]]) -> SemanticJudge:
    """The semantic judge the settings choose (``grounding`` unless ``llm`` is asked for; a
    model judge stays under the grounding judge's veto)."""
    if settings.judge.kind == "llm":
        client = build_chat_client(settings, "judge.kind")
        closers.append(client.close)
        return VetoedJudge(LlmJudge(client))
    return GroundingJudge()


def build_chat_client(settings: Settings, asked_by: str) -> ChatClient:
    """A chat client for the ``[model]`` endpoint (the key from its environment variable)."""
    model = settings.model
    if model.base_url is None or model.name is None:
        raise SettingsError(f"{asked_by}: needs [model] base_url and name")
    return ChatClient(model.base_url, model.name, os.environ.get(model.api_key_env))


def register_tools(
    settings: Settings,
    registry: ToolRegistry,
    closers: list[Callable[[], None]],
    *,
    clock: Clock | None = None,
) -> None:
    """Register every evidence tool whose backend is configured (one line per tool); the SQL
    tool binds ``NOW()`` to ``clock``'s time at the start of each call."""
    if settings.knowledge.dir is not None:
        registry.register(KnowledgeTool(_knowledge_backend(settings.knowledge.dir, closers)))
    if settings.logs.dir is not None:
        registry.register(LogsToolSpec(FileLogBackend(Path(settings.logs.dir))))
    sql = SqlTool.from_settings(settings.sql, clock=clock)
    if sql is not None:
        closers.append(sql.close)
        registry.register(SqlToolSpec(sql))


def _knowledge_backend(folder: str, closers: list[Callable[[], None]]) -> SqliteKnowledgeBackend:
    built = SqliteKnowledgeBackend.from_folder(Path(folder))
    if not isinstance(built, Success):
        failure = built.failure()
        raise SettingsError(f"knowledge.dir: {failure.code.value.lower().replace('_', ' ')}")
    backend: SqliteKnowledgeBackend = built.unwrap()
    closers.append(backend.close)
    return backend


def harness_from(runtime: Runtime) -> Harness:
    """The facade over a wired runtime (its audit opened on first use)."""

    def open_audit_views() -> AuditViews:
        from factledger.adapters.audit.wiring import open_audit

        opened = open_audit(runtime.settings, runtime.store, runtime.clock)
        if not isinstance(opened, Success):
            raise HarnessError(HarnessErrorCode.STORE_UNAVAILABLE, opened.failure().message)
        audit = opened.unwrap()
        runtime.add_closer(audit.close)
        views: AuditViews = audit.views()
        return views

    return Harness(
        HarnessParts(
            runs=runtime.runs,
            run_service=runtime.run_service,
            registry=runtime.registry,
            interceptor=runtime.interceptor,
            canonical=runtime.canonical,
            snapshots=runtime.snapshots,
            releases=runtime.releases,
            checks=runtime.checks,
            verifier=runtime.verifier,
            vault=runtime.vault,
            budget=runtime.budget,
            progress=runtime.progress_policy,
            close=runtime.close,
            audit=open_audit_views,
            in_process=type(runtime.store) is MemoryEventStore
            and type(runtime.vault) is MemoryPayloadVault,
        )
    )


def build_harness(
    settings: Settings | None = None,
    *,
    tools: Sequence[OwnTool] | None = None,
    clock: Clock | None = None,
    ids: IdFactory | None = None,
    wrap_store: Callable[[EventStore], EventStore] | None = None,
) -> Harness:
    """The Harness wired from settings (the lookup order's when None), with the built-in tools
    the settings configure and ``tools`` of one's own (see ``build_runtime``)."""
    runtime = build_runtime(
        load_settings() if settings is None else settings,
        tools=tools,
        clock=clock,
        ids=ids,
        wrap_store=wrap_store,
    )
    return harness_from(runtime)


def embedded_harness() -> Harness:
    """The Harness on the settings the lookup order finds (embedded defaults without a file);
    registered as the ``factledger.composition`` entry point ``embedded``."""
    return build_harness(load_settings())
