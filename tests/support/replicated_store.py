"""An event store with an asynchronous replica that can lag and take over: the failover that
loses acknowledged appends (ADR 0009), reproduced on two in-memory stores."""

from __future__ import annotations

import threading

from returns.result import Result

from factledger.adapters.memory.event_store import MemoryEventStore
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.domain.chain import ChainHead, StoredEvent
from factledger.ports.clock import Clock
from factledger.ports.event_store import (
    Appended,
    AppendOutcome,
    AppendRequest,
    EventStore,
    LogEntry,
    RunIndexEntry,
)
from factledger.ports.store_errors import StoreUnavailable


class ReplicatedEventStore:
    """Writes go to the primary and, while replication runs, to the replica as well; reads
    come from the primary. ``fail_over`` makes the replica the primary."""

    def __init__(self, primary: EventStore, clock: Clock) -> None:
        self._primary = primary
        self._replica: EventStore = MemoryEventStore(MemoryPayloadVault(clock), primary.partitions)
        self._replicating = True
        self._lock = threading.Lock()

    def stop_replication(self) -> None:
        """The replica stops receiving appends (a lagging or cut-off link)."""
        with self._lock:
            self._replicating = False

    def fail_over(self) -> None:
        """The replica takes over, without what it did not receive."""
        with self._lock:
            self._primary, self._replicating = self._replica, False

    @property
    def partitions(self) -> int:
        return self._primary.partitions

    def partition_of(self, run_id: str) -> int:
        return self._primary.partition_of(run_id)

    def append(self, request: AppendRequest) -> AppendOutcome:
        with self._lock:
            primary, replicating = self._primary, self._replicating
        outcome = primary.append(request)
        if replicating and isinstance(outcome, Appended) and not outcome.already_committed:
            self._replica.append(request)
        return outcome

    def read_run(
        self, run_id: str, after_sequence: int = 0
    ) -> Result[tuple[StoredEvent, ...], StoreUnavailable]:
        return self._primary.read_run(run_id, after_sequence)

    def read_head(self, run_id: str) -> Result[ChainHead | None, StoreUnavailable]:
        return self._primary.read_head(run_id)

    def read_log(
        self, partition: int, after: str | None, limit: int
    ) -> Result[tuple[LogEntry, ...], StoreUnavailable]:
        return self._primary.read_log(partition, after, limit)

    def list_runs(self, limit: int) -> Result[tuple[RunIndexEntry, ...], StoreUnavailable]:
        return self._primary.list_runs(limit)
