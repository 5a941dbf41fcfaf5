"""The event store in the embedded SQLite file.

Per-run streams are rows of ``events`` keyed by (run, sequence); the chain head, state and
start time are kept outside them, in ``runs`` and ``run_meta``. Every event also gets one
entry in ``partition_log``, whose AUTOINCREMENT position orders all appends and is the
checkpoint a projection passes back to ``read_log``. ``append`` is ``append.py``.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Final

from returns.result import Result
from sqlalchemy import Connection, and_, bindparam, delete, func, select
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from factledger.adapters.sqlite.append import append_in
from factledger.adapters.sqlite.database import (
    SqliteDatabase,
    from_micros,
    micros,
    stored_bytes,
)
from factledger.adapters.sqlite.schema import (
    commands,
    counters,
    events,
    partition_log,
    run_meta,
    runs,
    unique_keys,
    vault,
)
from factledger.domain.chain import ChainHead, StoredEvent
from factledger.domain.ids import partition_of
from factledger.ports.append_waiter import read_until_appended
from factledger.ports.event_store import (
    AppendOutcome,
    AppendRequest,
    LogEntry,
    RunIndexEntry,
)
from factledger.ports.retention import SweepCounts, lowest_checkpoint
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


_EXPIRES_AT: Final = "retention_expires_at"
"""The ``run_meta`` field ``expire_run`` sets (microseconds since the epoch)."""
_meta_row = sqlite_insert(run_meta)
_SET_EXPIRY: Final = _meta_row.on_conflict_do_update(
    index_elements=[run_meta.c.run_id, run_meta.c.name], set_={"value": _meta_row.excluded.value}
)
_EXPIRED_RUNS: Final = (
    select(
        runs.c.run_id,
        runs.c.partition,
        run_meta.c.value,
        select(func.max(partition_log.c.position))
        .where(partition_log.c.run_id == runs.c.run_id)
        .scalar_subquery(),
    )
    .select_from(runs.join(run_meta, run_meta.c.run_id == runs.c.run_id))
    .where(run_meta.c.name == bindparam("name"))
)
_DROP_LOG: Final = delete(partition_log).where(partition_log.c.run_id == bindparam("run_id"))
_DROP_RUN: Final = tuple(
    delete(table).where(table.c.run_id == bindparam("run_id"))
    for table in (events, run_meta, unique_keys, counters, commands, vault, runs)
)


def _text(value: object) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _event(run_id: str, sequence: int, data: object, digest: object) -> StoredEvent:
    return StoredEvent(run_id, sequence, stored_bytes(data), _text(digest))


def _position(text: str | None) -> int | None:
    if text is None:
        return 0
    return int(text) if text.isdigit() else None


class SqliteEventStore:
    """Streams, heads, guards and partition logs in one SQLite file; see the module doc."""

    def __init__(self, database: SqliteDatabase) -> None:
        self._db = database
        self._appended = threading.Condition()
        self._appends = 0  # appends by this process, under ``_appended``

    @property
    def partitions(self) -> int:
        return self._db.partitions

    def partition_of(self, run_id: str) -> int:
        return partition_of(run_id, self._db.partitions)

    def append(self, request: AppendRequest) -> AppendOutcome:
        partition = self.partition_of(request.run_id)
        now = self._db.clock.now()
        outcome = self._db.write(lambda connection: append_in(connection, request, partition, now))
        with self._appended:
            self._appends += 1
            self._appended.notify_all()
        return outcome

    def wait_for_append(self, run_id: str, after_sequence: int, timeout_seconds: float) -> bool:
        """Block until the run holds an event after ``after_sequence``: woken at once by an
        append of this process; another process's append is seen by reading the head, with
        a backoff from 2 ms to 50 ms (SQLite has no notification across processes)."""
        seen = 0

        def read_head() -> Result[ChainHead | None, StoreUnavailable]:
            nonlocal seen
            with self._appended:
                seen = self._appends
            return self.read_head(run_id)

        def pause(seconds: float) -> None:
            with self._appended:
                if self._appends == seen:  # no append of this process since the read
                    self._appended.wait(timeout=seconds)

        return read_until_appended(read_head, after_sequence, timeout_seconds, pause)

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

    # -- retention (ADR 0008) -----------------------------------------------------------

    def expire_run(self, run_id: str, at: datetime) -> Result[None, StoreUnavailable]:
        """Record when the run's stream, head and guards go (``prune`` removes them then)."""
        expires_at = str(micros(at))

        def work(connection: Connection) -> tuple[None, bool]:
            if connection.execute(_READ_HEAD, {"run_id": run_id}).first() is None:
                return None, False
            connection.execute(
                _SET_EXPIRY, {"run_id": run_id, "name": _EXPIRES_AT, "value": expires_at}
            )
            return None, True

        return self._db.write_or_unavailable(work)

    def prune(
        self, before: datetime, behind: Mapping[int, str | None] | None = None
    ) -> Result[SweepCounts, StoreUnavailable]:
        """Remove every run whose expiry is at or before ``before``: its events, metadata,
        keys, counters, commands, bodies and partition-log entries. With ``behind`` (the
        lowest checkpoint of each partition), a run with a log entry past it is kept."""
        before_us = micros(before)

        def work(connection: Connection) -> tuple[SweepCounts, bool]:
            expired = connection.execute(_EXPIRED_RUNS, {"name": _EXPIRES_AT}).all()
            runs = entries = 0
            for run_id, partition, value, last_position in expired:
                if not str(value).isdigit() or int(value) > before_us:
                    continue
                if behind is not None and last_position is not None:
                    limit = _position(behind.get(partition))
                    if limit is None or limit == 0 or last_position > limit:
                        continue
                entries += connection.execute(_DROP_LOG, {"run_id": run_id}).rowcount
                for statement in _DROP_RUN:
                    connection.execute(statement, {"run_id": run_id})
                runs += 1
            return SweepCounts(log_entries=entries, runs=runs), True

        return self._db.write_or_unavailable(work)

    def sweep(
        self,
        now: datetime,
        horizon: datetime,
        checkpoints: Mapping[int, Sequence[str | None]],
    ) -> Result[SweepCounts, StoreUnavailable]:
        """``prune(now)`` behind the lowest checkpoint of each partition (the log entries of
        this store hold no bytes: they go with their run)."""
        behind = {
            partition: lowest_checkpoint(
                checkpoints.get(partition, ()), lambda position: _position(position) or 0
            )
            for partition in range(self.partitions)
        }
        return self.prune(now, behind)
