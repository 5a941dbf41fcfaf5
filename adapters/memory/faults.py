"""Store and vault wrappers that inject faults on demand: outage drills and tests.

``FaultyEventStore``:

``UNAVAILABLE`` answers as an unreachable store (nothing written). ``LOST_REPLY`` lets the
append happen and then loses the reply (the caller sees ``UnknownOutcome``), as a timeout
after the server applied the script does. ``NOT_SENT`` answers ``UnknownOutcome`` without
appending, as a timeout before the request reached the server does.

``FaultyPayloadVault`` answers chosen operations as an unreachable vault (nothing read or
written), and counts every call by operation.
"""

from __future__ import annotations

import threading
from collections import Counter, deque
from collections.abc import Sequence
from enum import StrEnum

from returns.result import Failure, Result

from factledger.domain.chain import ChainHead, StoredEvent
from factledger.ports.event_store import (
    AppendOutcome,
    AppendRequest,
    EventStore,
    LogEntry,
    RunIndexEntry,
    UnknownOutcome,
)
from factledger.ports.payload_vault import PayloadKey, PayloadVault, PayloadWrite, VaultPurged
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["Fault", "FaultyEventStore", "FaultyPayloadVault", "VaultOperation"]


class Fault(StrEnum):
    """What the next append or read does instead of its normal work."""

    UNAVAILABLE = "UNAVAILABLE"
    LOST_REPLY = "LOST_REPLY"
    NOT_SENT = "NOT_SENT"


class FaultyEventStore:
    """Delegates to ``inner`` except where a queued fault says otherwise."""

    def __init__(self, inner: EventStore) -> None:
        self._inner = inner
        self._append_faults: deque[Fault] = deque()
        self._reads_down = False
        self._lock = threading.Lock()
        self.appends = 0

    def fail_appends(self, *faults: Fault) -> None:
        """Queue faults for the next appends, in order."""
        with self._lock:
            self._append_faults.extend(faults)

    def set_reads_down(self, down: bool) -> None:
        """Make every read answer ``StoreUnavailable`` (or stop doing so)."""
        with self._lock:
            self._reads_down = down

    @property
    def inner(self) -> EventStore:
        """The store the faults are injected in front of (drills reach it directly)."""
        return self._inner

    @property
    def partitions(self) -> int:
        return self._inner.partitions

    def partition_of(self, run_id: str) -> int:
        return self._inner.partition_of(run_id)

    def append(self, request: AppendRequest) -> AppendOutcome:
        with self._lock:
            self.appends += 1
            fault = self._append_faults.popleft() if self._append_faults else None
        match fault:
            case None:
                return self._inner.append(request)
            case Fault.UNAVAILABLE:
                return StoreUnavailable("CONNECTION")
            case Fault.LOST_REPLY:
                self._inner.append(request)
                return UnknownOutcome("TIMEOUT")
            case Fault.NOT_SENT:
                return UnknownOutcome("TIMEOUT")

    def _down(self) -> bool:
        with self._lock:
            return self._reads_down

    def read_run(
        self, run_id: str, after_sequence: int = 0
    ) -> Result[tuple[StoredEvent, ...], StoreUnavailable]:
        if self._down():
            return Failure(StoreUnavailable("CONNECTION"))
        return self._inner.read_run(run_id, after_sequence)

    def read_head(self, run_id: str) -> Result[ChainHead | None, StoreUnavailable]:
        if self._down():
            return Failure(StoreUnavailable("CONNECTION"))
        return self._inner.read_head(run_id)

    def read_log(
        self, partition: int, after: str | None, limit: int
    ) -> Result[tuple[LogEntry, ...], StoreUnavailable]:
        if self._down():
            return Failure(StoreUnavailable("CONNECTION"))
        return self._inner.read_log(partition, after, limit)

    def list_runs(self, limit: int) -> Result[tuple[RunIndexEntry, ...], StoreUnavailable]:
        if self._down():
            return Failure(StoreUnavailable("CONNECTION"))
        return self._inner.list_runs(limit)


class VaultOperation(StrEnum):
    """An operation of the payload vault."""

    PUT = "PUT"
    GET_MANY = "GET_MANY"
    REMAINING_TTL = "REMAINING_TTL"
    PURGE = "PURGE"


_DOWN: Failure[StoreUnavailable] = Failure(StoreUnavailable("CONNECTION"))


class FaultyPayloadVault:
    """Delegates to ``inner`` except for the operations set down; counts every call."""

    def __init__(self, inner: PayloadVault) -> None:
        self._inner = inner
        self._down: set[VaultOperation] = set()
        self._calls: Counter[VaultOperation] = Counter()
        self._lock = threading.Lock()

    def set_down(self, down: bool, *operations: VaultOperation) -> None:
        """Make ``operations`` (every one when none is named) answer ``StoreUnavailable``, or
        stop doing so."""
        chosen = set(operations or VaultOperation)
        with self._lock:
            self._down = self._down | chosen if down else self._down - chosen

    def calls(self, operation: VaultOperation) -> int:
        """How many times ``operation`` was called (failed calls included)."""
        with self._lock:
            return self._calls[operation]

    def _enter(self, operation: VaultOperation) -> bool:
        """Count the call; True when it must fail."""
        with self._lock:
            self._calls[operation] += 1
            return operation in self._down

    def put(self, writes: Sequence[PayloadWrite]) -> Result[None, StoreUnavailable]:
        if self._enter(VaultOperation.PUT):
            return _DOWN
        return self._inner.put(writes)

    def get_many(
        self, keys: Sequence[PayloadKey]
    ) -> Result[tuple[bytes | None, ...], StoreUnavailable]:
        if self._enter(VaultOperation.GET_MANY):
            return _DOWN
        return self._inner.get_many(keys)

    def remaining_ttl_ms(self, key: PayloadKey) -> Result[int | None, StoreUnavailable]:
        if self._enter(VaultOperation.REMAINING_TTL):
            return _DOWN
        return self._inner.remaining_ttl_ms(key)

    def purge_expired(self) -> Result[VaultPurged, StoreUnavailable]:
        if self._enter(VaultOperation.PURGE):
            return _DOWN
        return self._inner.purge_expired()
