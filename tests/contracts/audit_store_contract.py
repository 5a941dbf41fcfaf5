"""One contract suite for the AuditStore port.

Each adapter subclasses ``AuditStoreContract``, providing ``open_store`` (a new handle on one
shared, migrated audit database, as another worker would open it, with a 0.5 s timeout) and
``held_lock`` (a context manager under which another process or connection holds the
database's write lock).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from datetime import UTC, datetime, timedelta
from typing import Final

import pytest
from returns.result import Success

from factledger.domain.status import EvidenceStatus, InvocationStatus, RunState
from factledger.ports.audit import (
    AUDIT_PROJECTION,
    START,
    AuditChanges,
    AuditCommit,
    AuditStore,
    AuditUnavailable,
    Checkpoint,
    CheckpointMoved,
    InvocationRow,
    RowsCommitted,
    RunAudit,
    RunRow,
)

T0: Final = datetime(2026, 3, 14, 9, 40, tzinfo=UTC)
StoreOpener = Callable[[], AuditStore]
LockHolder = Callable[[], AbstractContextManager[None]]


def run_row(run_id: str, sequence: int, state: RunState | None = None) -> RunRow:
    return RunRow(run_id, 0, started_at=T0, state=state, last_sequence=sequence)


def call_row(run_id: str, call: str, sequence: int, status: InvocationStatus) -> InvocationRow:
    ready = status is InvocationStatus.READY
    return InvocationRow(
        run_id=run_id,
        tool_call_id=call,
        tool_name="query_logs",
        step=1,
        status=status,
        evidence_status=EvidenceStatus.EVIDENCE_FOUND if ready else None,
        error_code=None,
        error_reason=None,
        started_at=T0,
        completed_at=T0 + timedelta(milliseconds=250) if ready else None,
        latency_us=250_000 if ready else None,
        request_bytes=10,
        raw_bytes=100 if ready else None,
        projection_bytes=50 if ready else None,
        truncated=False if ready else None,
        last_sequence=sequence,
    )


def writes(changes: AuditChanges) -> Callable[[Mapping[str, RunAudit]], AuditChanges]:
    return lambda _: changes


def commit(expected: Checkpoint, then: str, *run_ids: str) -> AuditCommit:
    return AuditCommit(AUDIT_PROJECTION, 0, expected, Checkpoint(then), run_ids)


class AuditStoreContract:
    """Every adapter of the audit store port must pass these."""

    @pytest.fixture
    def open_store(self) -> StoreOpener:
        raise NotImplementedError

    @pytest.fixture
    def held_lock(self) -> LockHolder:
        raise NotImplementedError

    @pytest.fixture
    def store(self, open_store: StoreOpener) -> AuditStore:
        return open_store()

    def test_a_fresh_store_has_every_checkpoint_at_the_start_and_no_run(
        self, store: AuditStore
    ) -> None:
        assert store.checkpoints(AUDIT_PROJECTION, 3) == Success((START, START, START))
        assert store.read_run("run-a") == Success(None)

    def test_a_commit_moves_the_checkpoint_and_writes_its_rows_together(
        self, store: AuditStore
    ) -> None:
        changes = AuditChanges(
            runs=(run_row("run-a", 2),),
            invocations=(call_row("run-a", "c1", 2, InvocationStatus.PROJECTING),),
        )
        assert store.commit(commit(START, "7", "run-a"), writes(changes)) == RowsCommitted(2)
        assert store.checkpoints(AUDIT_PROJECTION, 2) == Success((Checkpoint("7"), START))
        held = store.read_run("run-a").unwrap()
        assert held is not None
        assert held.run.last_sequence == 2
        assert held.invocations["c1"].status is InvocationStatus.PROJECTING

    def test_a_batch_read_after_a_checkpoint_that_moved_writes_nothing(
        self, open_store: StoreOpener
    ) -> None:
        first, second = open_store(), open_store()
        assert isinstance(first.commit(commit(START, "5"), writes(AuditChanges())), RowsCommitted)
        late = second.commit(
            commit(START, "9", "run-a"), writes(AuditChanges((run_row("run-a", 1),)))
        )
        assert late == CheckpointMoved(Checkpoint("5"))
        assert second.read_run("run-a") == Success(None)

    def test_the_fold_sees_the_current_rows_of_the_batch_s_runs(self, store: AuditStore) -> None:
        store.commit(commit(START, "1", "run-a"), writes(AuditChanges((run_row("run-a", 1),))))
        seen: list[int] = []

        def fold(current: Mapping[str, RunAudit]) -> AuditChanges:
            seen.append(current["run-a"].run.last_sequence)
            return AuditChanges((run_row("run-a", 3, RunState.SUCCESS),))

        assert isinstance(store.commit(commit(Checkpoint("1"), "2", "run-a"), fold), RowsCommitted)
        assert seen == [1]
        held = store.read_run("run-a").unwrap()
        assert held is not None
        assert held.run.state is RunState.SUCCESS

    def test_a_row_is_never_overwritten_by_one_with_a_lower_sequence(
        self, store: AuditStore
    ) -> None:
        newer = AuditChanges(
            runs=(run_row("run-a", 5, RunState.SUCCESS),),
            invocations=(call_row("run-a", "c1", 5, InvocationStatus.READY),),
        )
        older = AuditChanges(
            runs=(run_row("run-a", 3, RunState.RUNNING),),
            invocations=(call_row("run-a", "c1", 3, InvocationStatus.PROJECTING),),
        )
        store.commit(commit(START, "1"), writes(newer))
        store.commit(commit(Checkpoint("1"), "2"), writes(older))
        held = store.read_run("run-a").unwrap()
        assert held is not None
        assert (held.run.state, held.run.last_sequence) == (RunState.SUCCESS, 5)
        assert held.invocations["c1"].status is InvocationStatus.READY

    def test_a_rebuild_starts_over_and_a_reset_run_loses_its_old_rows(
        self, store: AuditStore
    ) -> None:
        old = AuditChanges(
            runs=(run_row("run-a", 9),),
            invocations=(call_row("run-a", "stale", 9, InvocationStatus.READY),),
        )
        store.commit(commit(START, "4"), writes(old))
        assert store.begin_rebuild(AUDIT_PROJECTION, [0]) == Success(None)
        rebuilding = Checkpoint(None, rebuilding=True)
        assert store.checkpoints(AUDIT_PROJECTION, 1) == Success((rebuilding,))
        fresh = AuditChanges(runs=(run_row("run-a", 2),), reset_runs=("run-a",))
        assert isinstance(
            store.commit(
                AuditCommit(AUDIT_PROJECTION, 0, rebuilding, Checkpoint("4", True)), writes(fresh)
            ),
            RowsCommitted,
        )
        held = store.read_run("run-a").unwrap()
        assert held is not None
        assert held.run.last_sequence == 2
        assert dict(held.invocations) == {}

    def test_replacing_a_run_swaps_its_rows_and_keeps_the_checkpoint(
        self, store: AuditStore
    ) -> None:
        store.commit(commit(START, "3"), writes(AuditChanges((run_row("run-a", 7),))))
        replaced = store.replace_run(
            AUDIT_PROJECTION, 0, "run-a", AuditChanges((run_row("run-a", 4),))
        )
        assert replaced == Success(1)
        held = store.read_run("run-a").unwrap()
        assert held is not None
        assert held.run.last_sequence == 4
        assert store.checkpoints(AUDIT_PROJECTION, 1) == Success((Checkpoint("3"),))

    def test_a_locked_database_answers_unavailable_within_a_second(
        self, store: AuditStore, held_lock: LockHolder
    ) -> None:
        with held_lock():
            started = time.monotonic()
            outcome = store.commit(commit(START, "1"), writes(AuditChanges((run_row("run-a", 1),))))
            elapsed = time.monotonic() - started
        assert isinstance(outcome, AuditUnavailable), outcome
        assert elapsed < 1.0, elapsed
        assert isinstance(store.commit(commit(START, "1"), writes(AuditChanges())), RowsCommitted)
