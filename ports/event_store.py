"""The event store: one append-only stream per run, partition logs for projections.

``append`` states the sequence it expects and a command id. It either writes every event,
unique key, counter, metadata field and payload of the request, or nothing, and says which:
``Appended`` (also when the command id was already committed: a retry after an unknown
outcome learns it here), ``SequenceConflict`` (reload and decide again), ``DuplicateKey``,
``CounterLimitExceeded``, ``StoreUnavailable`` (nothing written) or ``UnknownOutcome``
(it may or may not be written: retry with the same command id, never re-decide).
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, TypeAlias

from attrs import frozen
from returns.result import Result

from factledger.domain.append_guards import CounterGuard, MetaField
from factledger.domain.budget import BudgetName
from factledger.domain.chain import ChainHead, StoredEvent
from factledger.ports.payload_vault import PayloadWrite
from factledger.ports.store_errors import StoreFailureReason, StoreUnavailable

__all__ = [
    "AppendOutcome",
    "AppendRequest",
    "Appended",
    "CounterLimitExceeded",
    "DuplicateKey",
    "EventStore",
    "LogEntry",
    "RunIndexEntry",
    "SequenceConflict",
    "UnknownOutcome",
]


@frozen
class AppendRequest:
    """Everything one atomic append writes, and everything it checks first."""

    run_id: str
    """The run."""
    expected: ChainHead
    """The head the decision was made on (sequence and hash)."""
    command_id: str
    """Idempotency key of this logical append."""
    events: tuple[StoredEvent, ...]
    """The new events, numbered from ``expected.sequence + 1`` and chained."""
    unique_keys: tuple[str, ...] = ()
    """Keys that must not exist yet in the run (e.g. ``tool_call_id:<id>``)."""
    counters: tuple[CounterGuard, ...] = ()
    """Budget counters to add to, each within its limit."""
    meta: tuple[MetaField, ...] = ()
    """Run metadata fields to set (state)."""
    payloads: tuple[PayloadWrite, ...] = ()
    """Vault bodies written with the events."""
    started_at: datetime | None = None
    """Set on the first append of a run: indexes it for listing."""


@frozen
class Appended:
    """Every event is written; ``head`` is the new head."""

    head: ChainHead
    """The head after the append."""
    already_committed: bool = False
    """True when this command id had been committed before (an idempotent retry)."""


@frozen
class SequenceConflict:
    """The run's head is no longer the expected one: nothing was written."""

    actual: ChainHead
    """The head found."""


@frozen
class DuplicateKey:
    """A unique key already exists in the run: nothing was written."""

    key: str
    """The key."""


@frozen
class CounterLimitExceeded:
    """A counter would pass its limit: nothing was written."""

    counter: BudgetName
    """The counter: the budget that would pass its limit."""


@frozen
class UnknownOutcome:
    """The reply was lost (timeout, dropped connection): the append may have happened."""

    reason: StoreFailureReason
    """Why the reply was lost."""


AppendOutcome: TypeAlias = (
    Appended
    | SequenceConflict
    | DuplicateKey
    | CounterLimitExceeded
    | StoreUnavailable
    | UnknownOutcome
)
"""What an append did."""


@frozen
class LogEntry:
    """One event as its partition log holds it, with its position for checkpoints."""

    position: str
    """The entry's position in its partition log (opaque; pass it back as ``after``)."""
    event: StoredEvent
    """The event."""


@frozen
class RunIndexEntry:
    """A run as the store lists it."""

    run_id: str
    """The run."""
    started_at: datetime
    """When it started."""
    state: str
    """Its RunState value as last appended."""
    head: ChainHead
    """Its chain head kept outside the stream."""


class EventStore(Protocol):
    """Append-only per-run streams, their heads, and partition logs."""

    @property
    def partitions(self) -> int:
        """How many partition logs there are."""
        ...

    def partition_of(self, run_id: str) -> int:
        """The partition a run belongs to."""
        ...

    def append(self, request: AppendRequest) -> AppendOutcome:
        """Check everything, then write everything or nothing."""
        ...

    def read_run(
        self, run_id: str, after_sequence: int = 0
    ) -> Result[tuple[StoredEvent, ...], StoreUnavailable]:
        """The run's events with a sequence greater than ``after_sequence``, in order."""
        ...

    def read_head(self, run_id: str) -> Result[ChainHead | None, StoreUnavailable]:
        """The chain head kept outside the stream; ``None`` for an unknown run."""
        ...

    def read_log(
        self, partition: int, after: str | None, limit: int
    ) -> Result[tuple[LogEntry, ...], StoreUnavailable]:
        """Up to ``limit`` entries of a partition log after position ``after`` (or from the
        start when ``None``)."""
        ...

    def list_runs(self, limit: int) -> Result[tuple[RunIndexEntry, ...], StoreUnavailable]:
        """The most recently started runs, newest first."""
        ...
