"""An in-process event store with the same atomic-append contract as the Redis one."""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from datetime import datetime

from attrs import define, field
from returns.result import Result, Success

from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.domain.budget import BudgetName
from factledger.domain.chain import GENESIS, ChainHead, StoredEvent
from factledger.domain.ids import check_partitions, partition_of
from factledger.ports.event_store import (
    Appended,
    AppendOutcome,
    AppendRequest,
    CounterLimitExceeded,
    DuplicateKey,
    LogEntry,
    RunIndexEntry,
    SequenceConflict,
)
from factledger.ports.retention import SweepCounts, lowest_checkpoint
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["MemoryEventStore"]


@define
class _RunRecord:
    events: list[StoredEvent] = field(factory=list)
    head: ChainHead = GENESIS
    unique: set[str] = field(factory=set)
    counters: dict[BudgetName, int] = field(factory=dict)
    commands: dict[str, ChainHead] = field(factory=dict)
    meta: dict[str, str] = field(factory=dict)
    started_at: datetime | None = None
    expires_at: datetime | None = None


class MemoryEventStore:
    """Streams, heads, guards and partition logs in dicts, under one lock shared with the
    vault so that events and their bodies are written together."""

    def __init__(self, vault: MemoryPayloadVault, partitions: int = 1) -> None:
        check_partitions(partitions)
        self._vault = vault
        self._partitions = partitions
        self._runs: dict[str, _RunRecord] = {}
        self._logs: list[list[LogEntry]] = [[] for _ in range(partitions)]
        # Positions of the entries of each log, in order (equal to their index + 1 until
        # ``prune`` removes entries: positions are never reused or renumbered).
        self._positions: list[list[int]] = [[] for _ in range(partitions)]
        self._lock = vault.lock
        self._appended = threading.Condition(self._lock)
        self._waiting = 0  # threads in ``wait_for_append``, under the lock

    @property
    def partitions(self) -> int:
        return self._partitions

    def partition_of(self, run_id: str) -> int:
        return partition_of(run_id, self._partitions)

    def append(self, request: AppendRequest) -> AppendOutcome:
        with self._lock:
            record = self._runs.get(request.run_id)
            if record is None:
                record = _RunRecord()
            done = record.commands.get(request.command_id)
            if done is not None:
                return Appended(done, already_committed=True)
            if record.head != request.expected:
                return SequenceConflict(record.head)
            for key in request.unique_keys:
                if key in record.unique:
                    return DuplicateKey(key)
            for guard in request.counters:
                if record.counters.get(guard.name, 0) + guard.delta > guard.limit:
                    return CounterLimitExceeded(guard.name)
            self._write(record, request)
            if self._waiting:
                self._appended.notify_all()
            return Appended(record.head)

    def wait_for_append(self, run_id: str, after_sequence: int, timeout_seconds: float) -> bool:
        """Block until the run holds an event after ``after_sequence`` (woken by appends)."""

        def grown() -> bool:
            record = self._runs.get(run_id)
            return record is not None and record.head.sequence > after_sequence

        with self._appended:
            self._waiting += 1
            try:
                return self._appended.wait_for(grown, timeout=max(0.0, timeout_seconds))
            finally:
                self._waiting -= 1

    def _write(self, record: _RunRecord, request: AppendRequest) -> None:
        self._runs[request.run_id] = record
        partition = self.partition_of(request.run_id)
        log, positions = self._logs[partition], self._positions[partition]
        for event in request.events:
            record.events.append(event)
            position = positions[-1] + 1 if positions else 1
            positions.append(position)
            log.append(LogEntry(f"{position:020d}", event))
        if request.events:
            last = request.events[-1]
            record.head = ChainHead(last.sequence, last.hash)
        record.unique.update(request.unique_keys)
        for guard in request.counters:
            record.counters[guard.name] = record.counters.get(guard.name, 0) + guard.delta
        for meta in request.meta:
            record.meta[meta.name] = meta.value
        if request.started_at is not None:
            record.started_at = request.started_at
        record.commands[request.command_id] = record.head
        self._vault.put_while_locked(request.payloads)

    def read_run(
        self, run_id: str, after_sequence: int = 0
    ) -> Result[tuple[StoredEvent, ...], StoreUnavailable]:
        with self._lock:
            record = self._runs.get(run_id)
            if record is None:
                return Success(())
            return Success(tuple(record.events[after_sequence:]))

    def read_head(self, run_id: str) -> Result[ChainHead | None, StoreUnavailable]:
        with self._lock:
            record = self._runs.get(run_id)
            return Success(None if record is None else record.head)

    def read_log(
        self, partition: int, after: str | None, limit: int
    ) -> Result[tuple[LogEntry, ...], StoreUnavailable]:
        with self._lock:
            log = self._logs[partition]
            start = 0 if after is None else bisect_right(self._positions[partition], int(after))
            return Success(tuple(log[start : start + limit]))

    def list_runs(self, limit: int) -> Result[tuple[RunIndexEntry, ...], StoreUnavailable]:
        with self._lock:
            entries = [
                RunIndexEntry(
                    run_id=run_id,
                    started_at=record.started_at,
                    state=record.meta.get("state", "RUNNING"),
                    head=record.head,
                )
                for run_id, record in self._runs.items()
                if record.started_at is not None
            ]
        entries.sort(key=lambda entry: entry.started_at, reverse=True)
        return Success(tuple(entries[:limit]))

    def replace_event_for_drill(self, run_id: str, sequence: int, event: StoredEvent) -> None:
        """Overwrite a stored event (a tampering drill: chain verification must notice)."""
        with self._lock:
            self._runs[run_id].events[sequence - 1] = event

    def truncate_for_drill(self, run_id: str, keep: int) -> None:
        """Drop a run's tail events but keep its head (a deleted-tail drill)."""
        with self._lock:
            del self._runs[run_id].events[keep:]

    # -- retention (ADR 0008) -----------------------------------------------------------

    def expire_run(self, run_id: str, at: datetime) -> Result[None, StoreUnavailable]:
        """Record when the run goes (``prune`` removes it then)."""
        with self._lock:
            record = self._runs.get(run_id)
            if record is not None:
                record.expires_at = at
        return Success(None)

    def prune(
        self, before: datetime, behind: Mapping[int, str | None] | None = None
    ) -> Result[SweepCounts, StoreUnavailable]:
        """Remove every run whose expiry is at or before ``before``, with its partition-log
        entries (positions are kept: the rest of the log reads as before). With ``behind``
        (the lowest checkpoint of each partition), a run with a log entry past it is kept."""
        with self._lock:
            gone: set[str] = set()
            for run_id, record in self._runs.items():
                if record.expires_at is None or record.expires_at > before:
                    continue
                if behind is not None and not self._behind(run_id, behind):
                    continue
                gone.add(run_id)
            entries = 0
            for partition, log in enumerate(self._logs):
                kept = [
                    (entry, position)
                    for entry, position in zip(log, self._positions[partition], strict=True)
                    if entry.event.run_id not in gone
                ]
                entries += len(log) - len(kept)
                self._logs[partition] = [entry for entry, _ in kept]
                self._positions[partition] = [position for _, position in kept]
            for run_id in gone:
                del self._runs[run_id]
            return Success(SweepCounts(log_entries=entries, runs=len(gone)))

    def _behind(self, run_id: str, behind: Mapping[int, str | None]) -> bool:
        partition = self.partition_of(run_id)
        limit = behind.get(partition)
        if limit is None:
            return False
        positions = self._positions[partition]
        last = max(
            (
                p
                for e, p in zip(self._logs[partition], positions, strict=True)
                if e.event.run_id == run_id
            ),
            default=0,
        )
        return last <= int(limit)

    def sweep(
        self,
        now: datetime,
        horizon: datetime,
        checkpoints: Mapping[int, Sequence[str | None]],
    ) -> Result[SweepCounts, StoreUnavailable]:
        """``prune(now)`` behind the lowest checkpoint of each partition."""
        behind = {
            partition: lowest_checkpoint(checkpoints.get(partition, ()), str)
            for partition in range(self._partitions)
        }
        return self.prune(now, behind)
