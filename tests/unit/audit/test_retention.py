"""Retention: a run expires ``days`` after it ended; the embedded stores prune it then, never
past a projection's checkpoint; audit rows stay."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from returns.result import Success

from factledger.adapters.audit.wiring import AuditRuntime, open_audit
from factledger.adapters.config.sections import AuditSettings, RetentionSettings, StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.memory.event_store import MemoryEventStore
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.adapters.sqlite.stores import open_sqlite_stores
from factledger.application.projections.projector import CatchUpReport
from factledger.application.projections.retention import SweepReport
from factledger.domain.budget import RunBudget
from factledger.domain.chain import GENESIS
from factledger.domain.run_events import DiagnosisContext, RunEnded, RunStarted, ToolGrant
from factledger.domain.status import RunState
from factledger.ports.event_store import EventStore
from tests.unit.audit.support import append_events, dump_rows

T0 = datetime(2026, 3, 1, tzinfo=UTC)


def _run(events: EventStore, run_id: str, ended: datetime | None) -> None:
    started = RunStarted(
        run_id,
        RunBudget(),
        (ToolGrant("query_logs", True),),
        DiagnosisContext("payments"),
        T0 + timedelta(minutes=5),
    )
    head = append_events(events, run_id, GENESIS, [started], T0, f"{run_id}-start")
    if ended is not None:
        append_events(
            events, run_id, head, [RunEnded(RunState.CANCELLED, None)], ended, f"{run_id}-end"
        )


@pytest.fixture(params=["memory", "sqlite"])
def events(request: pytest.FixtureRequest, tmp_path: Path) -> EventStore:
    clock = ManualClock(T0)
    if request.param == "memory":
        return MemoryEventStore(MemoryPayloadVault(clock), partitions=2)
    return open_sqlite_stores(tmp_path / "store.db", clock, partitions=2).unwrap().events


def _audit(events: EventStore, tmp_path: Path, clock: ManualClock) -> AuditRuntime:
    settings = Settings(
        store=StoreSettings(kind="memory", partitions=2),
        retention=RetentionSettings(days=30),
        audit=AuditSettings(url=f"sqlite:///{(tmp_path / 'audit.db').as_posix()}"),
    )
    return open_audit(settings, events, clock).unwrap()


def test_a_run_goes_thirty_days_after_it_ended_and_its_audit_rows_stay(
    events: EventStore, tmp_path: Path
) -> None:
    clock = ManualClock(T0)
    _run(events, "run-ended", T0 + timedelta(hours=1))
    _run(events, "run-running", None)
    audit = _audit(events, tmp_path, clock)
    for projector in audit.projectors:
        assert isinstance(projector.catch_up(), CatchUpReport)
    rows = dump_rows(audit.store)
    assert audit.sweep is not None
    clock.set(T0 + timedelta(days=30, minutes=59))
    swept = audit.sweep.sweep()
    assert isinstance(swept, SweepReport)
    assert swept.counts.runs == 0
    clock.set(T0 + timedelta(days=30, hours=1))
    swept = audit.sweep.sweep()
    assert isinstance(swept, SweepReport)
    assert swept.counts.runs == 1
    assert swept.counts.log_entries == 2
    assert events.read_run("run-ended") == Success(())
    assert len(events.read_run("run-running").unwrap()) == 1
    assert dump_rows(audit.store) == rows
    audit.close()


def test_nothing_is_pruned_past_a_projection_that_has_not_applied_it(
    events: EventStore, tmp_path: Path
) -> None:
    clock = ManualClock(T0)
    _run(events, "run-ended", T0 + timedelta(hours=1))
    audit = _audit(events, tmp_path, clock)
    assert audit.expiry is not None
    assert audit.sweep is not None
    assert isinstance(audit.expiry.catch_up(), CatchUpReport)  # the expiry is set ...
    clock.set(T0 + timedelta(days=90))
    swept = audit.sweep.sweep()  # ... but the audit rows have not been projected yet
    assert isinstance(swept, SweepReport)
    assert swept.counts.runs == 0
    assert len(events.read_run("run-ended").unwrap()) == 2
    assert isinstance(audit.audit.catch_up(), CatchUpReport)
    swept = audit.sweep.sweep()
    assert isinstance(swept, SweepReport)
    assert swept.counts.runs == 1
    audit.close()


def test_pruning_keeps_the_positions_of_the_rest_of_the_log(events: EventStore) -> None:
    _run(events, "run-a", T0)
    _run(events, "run-b", T0)
    partition = events.partition_of("run-a")
    before = events.read_log(partition, None, 100).unwrap()
    expire = getattr(events, "expire_run")  # noqa: B009 - both embedded stores have it
    prune = getattr(events, "prune")  # noqa: B009
    assert isinstance(expire("run-a", T0), Success)
    assert prune(T0).unwrap().runs == 1
    after = events.read_log(partition, None, 100).unwrap()
    assert after == tuple(entry for entry in before if entry.event.run_id != "run-a")
    if after:
        assert events.read_log(partition, after[0].position, 100).unwrap() == after[1:]
