"""The event store in the embedded SQLite file.

Per-run streams are rows of ``events`` keyed by (run, sequence); the chain head, state and
start time are kept outside them, in ``runs`` and ``run_meta``. Every event also gets one
entry in ``partition_log``, whose AUTOINCREMENT position orders all appends and is the
checkpoint a projection passes back to ``read_log``. ``append`` is ``append.py``.
"""

from __future__ import annotations

from typing import Final

from returns.result import Result
from sqlalchemy import Connection, and_, bindparam, select

from factledger.adapters.sqlite.append import append_in
from factledger.adapters.sqlite.database import SqliteDatabase, from_micros
from factledger.adapters.sqlite.schema import events, partition_log, run_meta, runs
from factledger.domain.chain import ChainHead, StoredEvent
from factledger.domain.ids import partition_of
from factledger.ports.event_store import (
    AppendOutcome,
    AppendRequest,
    LogEntry,
    RunIndexEntry,
)
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["SqliteEventStore"]

_POSITION_DIGITS: Final = 20

_READ_RUN: Final = (
    select(events.c.sequence, events.c.data, events.c.hash)
    .where(events.c.run_id == bindparam("run_id"), events.c.sequence > bindparam("after"))
    .order_by(events.c.sequence)
)
_READ_HEAD: Final = select(runs.c.head_sequence, runs.c.head_hash).where(
    runs.c.run_id == bindparam("run_id")
)
_READ_LOG: Final = (
    select(
        partition_log.c.position,
        partition_log.c.run_id,
        partition_log.c.sequence,
        events.c.data,
        events.c.hash,
    )
    .select_from(
        partition_log.join(
            events,
            and_(
                events.c.run_id == partition_log.c.run_id,
                events.c.sequence == partition_log.c.sequence,
            ),
        )
    )
    .where(
        partition_log.c.partition == bindparam("partition"),
        partition_log.c.position > bindparam("after"),
    )
    .order_by(partition_log.c.position)
    .limit(bindparam("limit"))
)
_LIST_RUNS: Final = (
    select(
        runs.c.run_id, runs.c.started_at, run_meta.c.value, runs.c.head_sequence, runs.c.head_hash
    )
    .select_from(
        runs.outerjoin(
            run_meta, and_(run_meta.c.run_id == runs.c.run_id, run_meta.c.name == "state")
        )
    )
    .where(runs.c.started_at.is_not(None))
    .order_by(runs.c.started_at.desc(), runs.c.run_id)
    .limit(bindparam("limit"))
)


def _bytes(value: object) -> bytes:
    """A stored value as bytes: the column holds BLOBs, but SQLite lets anyone with the file
    store another type there, and a tampered row must verify as tampered, not crash."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, memoryview | bytearray):
        return bytes(value)
    return str(value).encode()


def _text(value: object) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _event(run_id: str, sequence: int, data: object, digest: object) -> StoredEvent:
    return StoredEvent(run_id, sequence, _bytes(data), _text(digest))


def _position(text: str | None) -> int | None:
    if text is None:
        return 0
    return int(text) if text.isdigit() else None


class SqliteEventStore:
    """Streams, heads, guards and partition logs in one SQLite file; see the module doc."""

    def __init__(self, database: SqliteDatabase) -> None:
        self._db = database

    @property
    def partitions(self) -> int:
        return self._db.partitions

    def partition_of(self, run_id: str) -> int:
        return partition_of(run_id, self._db.partitions)

    def append(self, request: AppendRequest) -> AppendOutcome:
        partition = self.partition_of(request.run_id)
        now = self._db.clock.now()
        return self._db.write(lambda connection: append_in(connection, request, partition, now))

    def read_run(
        self, run_id: str, after_sequence: int = 0
    ) -> Result[tuple[StoredEvent, ...], StoreUnavailable]:
        def read(connection: Connection) -> tuple[StoredEvent, ...]:
            rows = connection.execute(_READ_RUN, {"run_id": run_id, "after": after_sequence})
            return tuple(_event(run_id, seq, data, digest) for seq, data, digest in rows)

        return self._db.read(read)

    def read_head(self, run_id: str) -> Result[ChainHead | None, StoreUnavailable]:
        def read(connection: Connection) -> ChainHead | None:
            row = connection.execute(_READ_HEAD, {"run_id": run_id}).first()
            return None if row is None else ChainHead(row[0], _text(row[1]))

        return self._db.read(read)

    def read_log(
        self, partition: int, after: str | None, limit: int
    ) -> Result[tuple[LogEntry, ...], StoreUnavailable]:
        start = _position(after)

        def read(connection: Connection) -> tuple[LogEntry, ...]:
            if start is None or limit < 1:
                return ()
            rows = connection.execute(
                _READ_LOG, {"partition": partition, "after": start, "limit": limit}
            )
            return tuple(
                LogEntry(f"{position:0{_POSITION_DIGITS}d}", StoredEvent(run_id, seq, data, digest))
                for position, run_id, seq, data, digest in rows
            )

        return self._db.read(read)

    def list_runs(self, limit: int) -> Result[tuple[RunIndexEntry, ...], StoreUnavailable]:
        def read(connection: Connection) -> tuple[RunIndexEntry, ...]:
            rows = connection.execute(_LIST_RUNS, {"limit": max(limit, 0)})
            return tuple(
                RunIndexEntry(
                    run_id=run_id,
                    started_at=from_micros(started),
                    state=state or "RUNNING",
                    head=ChainHead(sequence, _text(digest)),
                )
                for run_id, started, state, sequence, digest in rows
            )

        return self._db.read(read)
