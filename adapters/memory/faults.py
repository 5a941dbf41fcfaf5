"""An event store wrapper that injects store faults on demand: outage drills and tests.

``UNAVAILABLE`` answers as an unreachable store (nothing written). ``LOST_REPLY`` lets the
append happen and then loses the reply (the caller sees ``UnknownOutcome``), as a timeout
after the server applied the script does. ``NOT_SENT`` answers ``UnknownOutcome`` without
appending, as a timeout before the request reached the server does.
"""

from __future__ import annotations

import threading
from collections import deque
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
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["Fault", "FaultyEventStore"]


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
