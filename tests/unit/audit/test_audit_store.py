"""The SQL audit store: migrations match the models, checkpoints move only from where a batch
was read, a row is never overwritten by an older one, and rebuilds keep what the log lost."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from returns.result import Success

from factledger.adapters.audit.models import AuditBase
from factledger.adapters.memory.event_store import MemoryEventStore
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.adapters.system import SystemClock
from factledger.application.projections.projector import CatchUpReport, PartitionReport
from factledger.domain.budget import RunBudget
from factledger.domain.chain import GENESIS
from factledger.domain.run_events import (
    DiagnosisContext,
    InvocationBegan,
    InvocationReady,
    RunEnded,
    RunStarted,
    ToolCallReserved,
    ToolGrant,
)
from factledger.domain.status import EvidenceStatus, RunState
from factledger.ports.audit import (
    AUDIT_PROJECTION,
    AuditChanges,
    AuditCommit,
    Checkpoint,
    CheckpointMoved,
    RowsCommitted,
    RunRow,
)
from tests.unit.audit.support import (
    AuditFiles,
    append_events,
    audit_projector,
    dump_rows,
    open_store,
)

T0 = datetime(2026, 3, 14, 9, 40, tzinfo=UTC)


def _run(events: MemoryEventStore, run_id: str, calls: int = 2) -> None:
    head = append_events(
        events,
        run_id,
        GENESIS,
        [
            RunStarted(
                run_id,
                RunBudget(),
                (ToolGrant("query_logs", True),),
                DiagnosisContext("payments"),
                T0 + timedelta(minutes=5),
            )
        ],
        T0,
        f"{run_id}-start",
    )
    for n in range(calls):
        call = f"call-{n}"
        head = append_events(
            events,
            run_id,
            head,
            [
                ToolCallReserved(call, "query_logs", 10),
                InvocationBegan(call, "query_logs", n + 1, 10, "ab" * 32, T0 + timedelta(hours=2)),
            ],
            T0 + timedelta(seconds=n),
            f"{run_id}-begin-{n}",
        )
        head = append_events(
            events,
            run_id,
            head,
            [
                InvocationReady(
                    call, EvidenceStatus.EVIDENCE_FOUND, 100, "cd" * 32, 50, "ef" * 32, False
                )
            ],
            T0 + timedelta(seconds=n, milliseconds=250),
            f"{run_id}-ready-{n}",
        )
    append_events(
        events,
        run_id,
        head,
        [RunEnded(RunState.CANCELLED, None)],
        T0 + timedelta(minutes=1),
        f"{run_id}-end",
    )


def _events() -> MemoryEventStore:
    return MemoryEventStore(MemoryPayloadVault(SystemClock()), partitions=2)


def test_the_migrations_create_exactly_the_tables_the_models_declare(
    tmp_path: Path, audit_template: Path
) -> None:
    store = open_store(AuditFiles(tmp_path, audit_template).fresh())
    with store.database.engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"version_table": "audit_schema_version"}
        )
        assert compare_metadata(context, AuditBase.metadata) == []
    store.close()


def test_an_invocation_row_holds_its_step_statuses_sizes_and_latency(
    tmp_path: Path, audit_template: Path
) -> None:
    events = _events()
    _run(events, "run-1")
    store = open_store(AuditFiles(tmp_path, audit_template).fresh())
    assert isinstance(audit_projector(events, store).catch_up(), CatchUpReport)
    held = store.read_run("run-1").unwrap()
    assert held is not None
    assert held.run.state is RunState.CANCELLED
    assert held.run.tool_calls == 2
    assert held.run.invocations_ready == 2
    assert held.run.last_sequence == 8
    call = held.invocations["call-1"]
    assert (call.step, call.status.value, call.evidence_status) == (2, "READY", "EVIDENCE_FOUND")
    assert (call.request_bytes, call.raw_bytes, call.projection_bytes) == (10, 100, 50)
    assert call.latency_us == 250_000
    store.close()


def test_a_batch_read_after_a_checkpoint_that_moved_writes_nothing(
    tmp_path: Path, audit_template: Path
) -> None:
    events = _events()
    _run(events, "run-1")
    store = open_store(AuditFiles(tmp_path, audit_template).fresh())
    partition = events.partition_of("run-1")
    first = audit_projector(events, store, batch_size=3)
    report = first.catch_up_partition(partition, max_batches=1)
    assert isinstance(report, PartitionReport)
    moved_to = store.checkpoints(AUDIT_PROJECTION, 2).unwrap()[partition]
    before = dump_rows(store)
    # A worker that read the log from the start (its lease lapsed) commits too late.
    stale = AuditCommit(
        AUDIT_PROJECTION,
        partition,
        Checkpoint(None),
        Checkpoint("00000000000000000003"),
        ("run-1",),
    )
    outcome = store.commit(stale, lambda _: AuditChanges(runs=(RunRow("run-1", partition),)))
    assert outcome == CheckpointMoved(moved_to)
    assert dump_rows(store) == before
    store.close()


def test_a_row_is_never_overwritten_by_one_with_a_lower_sequence(
    tmp_path: Path, audit_template: Path
) -> None:
    events = _events()
    _run(events, "run-1")
    store = open_store(AuditFiles(tmp_path, audit_template).fresh())
    assert isinstance(audit_projector(events, store).catch_up(), CatchUpReport)
    partition = events.partition_of("run-1")
    checkpoint = store.checkpoints(AUDIT_PROJECTION, 2).unwrap()[partition]
    older = RunRow("run-1", partition, state=RunState.RUNNING, last_sequence=3)
    outcome = store.commit(
        AuditCommit(AUDIT_PROJECTION, partition, checkpoint, checkpoint, ("run-1",)),
        lambda _: AuditChanges(runs=(older,)),
    )
    assert isinstance(outcome, RowsCommitted)
    held = store.read_run("run-1").unwrap()
    assert held is not None
    assert (held.run.state, held.run.last_sequence) == (RunState.CANCELLED, 8)
    store.close()


def test_deleting_every_row_and_rebuilding_restores_them_exactly(
    tmp_path: Path, audit_template: Path
) -> None:
    events = _events()
    for n in range(5):
        _run(events, f"run-{n}", calls=n)
    store = open_store(AuditFiles(tmp_path, audit_template).fresh())
    projector = audit_projector(events, store, batch_size=4)
    assert isinstance(projector.catch_up(), CatchUpReport)
    before = dump_rows(store)
    with store.database.engine.begin() as connection:
        for table in ("audit_transitions", "audit_model_usage", "audit_invocations", "audit_runs"):
            connection.exec_driver_sql(f"DELETE FROM {table}")
    assert isinstance(projector.rebuild(), CatchUpReport)
    assert dump_rows(store) == before
    assert isinstance(projector.rebuild(), CatchUpReport)
    assert dump_rows(store) == before
    store.close()


def test_a_rebuild_keeps_the_rows_of_runs_the_log_no_longer_holds(
    tmp_path: Path, audit_template: Path
) -> None:
    events = _events()
    _run(events, "run-old")
    _run(events, "run-new")
    store = open_store(AuditFiles(tmp_path, audit_template).fresh())
    projector = audit_projector(events, store)
    assert isinstance(projector.catch_up(), CatchUpReport)
    before = dump_rows(store)
    assert isinstance(events.expire_run("run-old", T0), Success)
    assert events.prune(T0).unwrap().runs == 1
    assert isinstance(projector.rebuild(), CatchUpReport)
    assert dump_rows(store) == before
    store.close()
