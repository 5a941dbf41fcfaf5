"""Checkpointed projections of the partition logs: catch up, rebuild, rebuild one run.

A projection reads a partition log after its checkpoint, a batch at a time, and commits each
batch with the checkpoint that covers it (``AuditStore.commit``): one transaction, so a crash
or an audit outage between batches loses nothing and applies nothing twice. It runs apart from
the ToolBoundary (a ``catch_up()`` call, or the follower loop in ``follower.py``): an audit
failure can never change, delay or fail a tool result.

Two projections use this loop: the audit rows (``AuditRowsBatches``), and run expiries for
retention (``retention.RunExpiryBatches``), which sets each ended run's expiry in the event
store and then moves its checkpoint (no rows).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeAlias

from attrs import frozen
from returns.result import Success

from factledger.application.projections.audit_fold import LoggedEvent, fold_batch, fold_run
from factledger.domain.chain import StoredEvent
from factledger.domain.codec import EventCodec
from factledger.ports.audit import (
    AUDIT_PROJECTION,
    AuditCommit,
    AuditStore,
    AuditUnavailable,
    Checkpoint,
    CheckpointMoved,
    CommitOutcome,
    RowsCommitted,
)
from factledger.ports.event_store import EventStore, LogEntry
from factledger.ports.store_errors import StoreUnavailable

__all__ = [
    "AuditRowsBatches",
    "BatchApplier",
    "CatchUpOutcome",
    "CatchUpReport",
    "PartitionReport",
    "Progress",
    "Projector",
    "RunNotInLog",
    "RunRebuilt",
    "Stopping",
    "decode_all",
    "rebuild_run",
]

Progress: TypeAlias = Callable[[int, int], None]
"""Called after every committed batch with the partition and how many events it held."""


class Stopping(Protocol):
    """Says whether to stop before the next batch (``threading.Event`` has this)."""

    def is_set(self) -> bool: ...


class BatchApplier(Protocol):
    """What a projection does with one batch of one partition log."""

    @property
    def name(self) -> str:
        """The projection's name (its checkpoints are kept under it)."""
        ...

    def apply(
        self,
        partition: int,
        expected: Checkpoint,
        then: Checkpoint,
        entries: tuple[LogEntry, ...],
    ) -> CommitOutcome | StoreUnavailable:
        """Apply the batch and move the checkpoint from ``expected`` to ``then``."""
        ...


@frozen
class PartitionReport:
    """What catching up one partition did."""

    partition: int
    """The partition log."""
    events: int = 0
    """Events applied."""
    rows: int = 0
    """Rows written."""
    batches: int = 0
    """Batches committed."""
    caught_up: bool = False
    """True when the end of the log was reached."""
    moved: bool = False
    """True when another worker moved the checkpoint (this one stopped)."""


@frozen
class CatchUpReport:
    """What catching up several partitions did."""

    partitions: tuple[PartitionReport, ...]
    """One report per partition."""

    @property
    def events(self) -> int:
        """Events applied in all."""
        return sum(report.events for report in self.partitions)

    @property
    def rows(self) -> int:
        """Rows written in all."""
        return sum(report.rows for report in self.partitions)


CatchUpOutcome: TypeAlias = CatchUpReport | AuditUnavailable | StoreUnavailable
"""Caught up, or stopped at an unavailable audit database or event store."""


def decode_all(codec: EventCodec, stored: Iterable[StoredEvent]) -> list[LoggedEvent]:
    """Decode stored events (an event this code cannot decode is kept, undecoded)."""
    logged: list[LoggedEvent] = []
    for event in stored:
        decoded = codec.decode(event.data, event.hash)
        logged.append(
            LoggedEvent(event, decoded.unwrap() if isinstance(decoded, Success) else None)
        )
    return logged


class AuditRowsBatches:
    """The audit rows: a batch is folded over the rows its runs hold, in the transaction."""

    def __init__(self, audit: AuditStore, codec: EventCodec) -> None:
        self._audit = audit
        self._codec = codec

    @property
    def name(self) -> str:
        return AUDIT_PROJECTION

    def apply(
        self,
        partition: int,
        expected: Checkpoint,
        then: Checkpoint,
        entries: tuple[LogEntry, ...],
    ) -> CommitOutcome | StoreUnavailable:
        logged = decode_all(self._codec, (entry.event for entry in entries))
        run_ids = tuple(dict.fromkeys(event.stored.run_id for event in logged))
        commit = AuditCommit(AUDIT_PROJECTION, partition, expected, then, run_ids)
        return self._audit.commit(
            commit,
            lambda current: fold_batch(current, logged, partition, rebuilding=expected.rebuilding),
        )


class Projector:
    """Drives one projection over the partition logs of an event store."""

    def __init__(
        self,
        events: EventStore,
        audit: AuditStore,
        applier: BatchApplier,
        *,
        batch_size: int = 2000,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size!r}")
        self._events = events
        self._audit = audit
        self._applier = applier
        self._batch_size = batch_size

    @property
    def name(self) -> str:
        """The projection's name."""
        return self._applier.name

    @property
    def partitions(self) -> int:
        """How many partition logs the event store has."""
        return self._events.partitions

    def catch_up(
        self,
        partitions: Iterable[int] | None = None,
        *,
        max_batches: int | None = None,
        progress: Progress | None = None,
    ) -> CatchUpOutcome:
        """Apply everything after the checkpoints (of every partition unless told which)."""
        chosen = tuple(range(self.partitions) if partitions is None else partitions)
        checkpoints = self._audit.checkpoints(self.name, self.partitions)
        if not isinstance(checkpoints, Success):
            return checkpoints.failure()
        held = checkpoints.unwrap()
        reports: list[PartitionReport] = []
        for partition in chosen:
            report = self._catch_up_from(partition, held[partition], max_batches, progress)
            if not isinstance(report, PartitionReport):
                return report
            reports.append(report)
        return CatchUpReport(tuple(reports))

    def catch_up_partition(
        self,
        partition: int,
        *,
        max_batches: int | None = None,
        progress: Progress | None = None,
        until: Stopping | None = None,
    ) -> PartitionReport | AuditUnavailable | StoreUnavailable:
        """Apply what one partition log holds after its checkpoint (at most ``max_batches``;
        no further batch once ``until`` is set)."""
        checkpoints = self._audit.checkpoints(self.name, self.partitions)
        if not isinstance(checkpoints, Success):
            return checkpoints.failure()
        return self._catch_up_from(
            partition, checkpoints.unwrap()[partition], max_batches, progress, until
        )

    def rebuild(
        self, partitions: Iterable[int] | None = None, *, progress: Progress | None = None
    ) -> CatchUpOutcome:
        """Replay the partition logs from their start: every run whose first event the log
        still holds gets its rows replaced; rows of runs the log no longer holds are kept."""
        chosen = tuple(range(self.partitions) if partitions is None else partitions)
        begun = self._audit.begin_rebuild(self.name, chosen)
        if not isinstance(begun, Success):
            return begun.failure()
        return self.catch_up(chosen, progress=progress)

    def _catch_up_from(
        self,
        partition: int,
        checkpoint: Checkpoint,
        max_batches: int | None,
        progress: Progress | None,
        until: Stopping | None = None,
    ) -> PartitionReport | AuditUnavailable | StoreUnavailable:
        events = rows = batches = 0
        while max_batches is None or batches < max_batches:
            if until is not None and until.is_set():
                break
            read = self._events.read_log(partition, checkpoint.position, self._batch_size)
            if not isinstance(read, Success):
                return read.failure()
            entries: tuple[LogEntry, ...] = read.unwrap()
            if not entries and not checkpoint.rebuilding:
                return PartitionReport(partition, events, rows, batches, caught_up=True)
            then = (
                Checkpoint(entries[-1].position, checkpoint.rebuilding)
                if entries
                else Checkpoint(checkpoint.position, rebuilding=False)
            )
            outcome = self._applier.apply(partition, checkpoint, then, entries)
            match outcome:
                case RowsCommitted():
                    checkpoint = then
                    events += len(entries)
                    rows += outcome.rows
                    batches += 1
                    if progress is not None and entries:
                        progress(partition, len(entries))
                case CheckpointMoved():
                    return PartitionReport(partition, events, rows, batches, moved=True)
                case AuditUnavailable() | StoreUnavailable():
                    return outcome
        return PartitionReport(partition, events, rows, batches)


@frozen
class RunRebuilt:
    """A run's rows were replaced by a fold of its whole stream."""

    run_id: str
    """The run."""
    events: int
    """Events folded."""
    rows: int
    """Rows written."""


@frozen
class RunNotInLog:
    """The run's stream is not in the store (unknown, or past retention): its rows are kept."""

    run_id: str
    """The run asked for."""


def rebuild_run(
    events: EventStore, audit: AuditStore, codec: EventCodec, run_id: str
) -> RunRebuilt | RunNotInLog | AuditUnavailable | StoreUnavailable:
    """Replace one run's audit rows with a fold of its stream (sequence 1 on)."""
    read = events.read_run(run_id)
    if not isinstance(read, Success):
        return read.failure()
    stored: Sequence[StoredEvent] = read.unwrap()
    if not stored or stored[0].sequence != 1:
        return RunNotInLog(run_id)
    partition = events.partition_of(run_id)
    changes = fold_run(decode_all(codec, stored), partition)
    written = audit.replace_run(AUDIT_PROJECTION, partition, run_id, changes)
    if not isinstance(written, Success):
        return written.failure()
    return RunRebuilt(run_id, len(stored), written.unwrap())
