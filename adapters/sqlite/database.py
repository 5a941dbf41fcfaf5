"""The SQLite file the event store and the vault share: opening it, transactions, and errors
as values.

pysqlite's own transaction handling is switched off (``isolation_level = None``) and every
transaction is begun explicitly: reads with a deferred ``BEGIN`` (a consistent snapshot under
WAL, never blocking a writer), writes with ``BEGIN IMMEDIATE``, which takes the file's write
lock before the first check, so writers in other processes wait for it (up to the busy
timeout) instead of failing half-way. Within one process, writers also queue on a lock, so
threads wait in order rather than in SQLite's sleeping busy handler.

Errors: a failure to open, to take the lock in time, or of any statement before ``COMMIT``
is ``StoreUnavailable`` (the transaction is rolled back: nothing written); a failure of
``COMMIT`` itself is ``UnknownOutcome``. Error text never leaves this module.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Final, TypeVar, assert_never

from attrs import frozen
from returns.result import Failure, Result, Success
from sqlalchemy import Connection, Engine, create_engine, event, insert, select
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import ConnectionPoolEntry

from factledger.adapters.sqlite.schema import SCHEMA_VERSION, metadata, store_info
from factledger.domain.ids import check_partitions
from factledger.ports.clock import Clock
from factledger.ports.event_store import UnknownOutcome
from factledger.ports.store_errors import StoreFailureReason, StoreUnavailable

__all__ = [
    "SECURE_SINCE_CREATION",
    "OpenFailure",
    "OpenFailureReason",
    "SQLITE_ERRORS",
    "SqliteDatabase",
    "Synchronous",
    "from_micros",
    "micros",
    "open_database",
    "stored_bytes",
]

SQLITE_ERRORS: Final[tuple[type[Exception], ...]] = (SQLAlchemyError, sqlite3.Error, OSError)
"""Everything a call into the file can raise that means the store is unavailable or unsure."""

SECURE_SINCE_CREATION: Final = "secure_delete"
"""The ``store_info`` row saying every delete in the file was a secure one (files created
before secure delete lack it: the first compaction rewrites them once)."""

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND: Final = timedelta(microseconds=1)
_BEGIN_OPTION: Final = "factledger_begin"
_BUSY_CODES: Final = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})
_OPEN_CODES: Final = frozenset(
    {
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_NOTADB,
        sqlite3.SQLITE_FULL,
    }
)

T = TypeVar("T")
R = TypeVar("R")


def micros(moment: datetime) -> int:
    """An aware datetime as whole microseconds since the Unix epoch (exact)."""
    return (moment - _EPOCH) // _MICROSECOND


def from_micros(value: int) -> datetime:
    """The inverse of ``micros`` (UTC)."""
    return _EPOCH + timedelta(microseconds=value)


def stored_bytes(value: object) -> bytes:
    """A stored BLOB as bytes: SQLite lets anyone with the file store another type in a BLOB
    column, and a tampered row must read as tampered (its digest does not match), not crash."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, memoryview | bytearray):
        return bytes(value)
    return str(value).encode()


class Synchronous(StrEnum):
    """``PRAGMA synchronous`` in WAL mode: ``FULL`` syncs the log on every commit (a committed
    append survives a power cut); ``NORMAL`` syncs at checkpoints only (it survives a crash of
    the process, not of the machine)."""

    FULL = "FULL"
    NORMAL = "NORMAL"


class OpenFailureReason(StrEnum):
    """Why the file could not be used."""

    UNAVAILABLE = "UNAVAILABLE"
    """It cannot be created, opened, locked or read as an SQLite database."""
    NOT_THIS_SCHEMA = "NOT_THIS_SCHEMA"
    """It was written by a different layout version."""
    PARTITIONS_CHANGED = "PARTITIONS_CHANGED"
    """It was created with another number of partitions (fixed for the life of a store)."""


@frozen
class OpenFailure:
    """The store file cannot be used as configured."""

    reason: OpenFailureReason
    """Why."""
    found: str | None = None
    """The value the file holds, for ``NOT_THIS_SCHEMA`` and ``PARTITIONS_CHANGED``."""

    def describe(self, path: str) -> str:
        """One line for an operator (never the driver's error text)."""
        match self.reason:
            case OpenFailureReason.UNAVAILABLE:
                return f"cannot create, open or lock {path!r} as an SQLite store"
            case OpenFailureReason.NOT_THIS_SCHEMA:
                return (
                    f"{path!r} holds store schema version {self.found}; "
                    f"this version reads {SCHEMA_VERSION}"
                )
            case OpenFailureReason.PARTITIONS_CHANGED:
                return f"{path!r} was created with {self.found} partitions (fixed for its life)"
            case _:
                assert_never(self.reason)


def reason_of(error: BaseException) -> StoreFailureReason:
    """A short code for an error: ``TIMEOUT`` (the lock was not free in time), ``CONNECTION``
    (the file cannot be opened, read or written) or ``SERVER_ERROR``."""
    if isinstance(error, PoolTimeout):
        return "TIMEOUT"
    cause: BaseException | None = error.orig if isinstance(error, DBAPIError) else error
    if isinstance(cause, sqlite3.Error):
        code = getattr(cause, "sqlite_errorcode", None)
        if isinstance(code, int):
            primary = code & 0xFF
            if primary in _BUSY_CODES:
                return "TIMEOUT"
            if primary in _OPEN_CODES:
                return "CONNECTION"
    if isinstance(cause, OSError):
        return "CONNECTION"
    return "SERVER_ERROR"


def _on_connect(synchronous: Synchronous) -> Callable[[object, ConnectionPoolEntry], None]:
    def configure(dbapi_connection: object, _: ConnectionPoolEntry) -> None:
        if not isinstance(dbapi_connection, sqlite3.Connection):  # pragma: no cover
            return
        # Transactions are begun explicitly (see the module docstring).
        dbapi_connection.isolation_level = None
        dbapi_connection.execute("PRAGMA journal_mode=WAL")
        dbapi_connection.execute(f"PRAGMA synchronous={synchronous.value}")
        # Deleted or overwritten content (an expired or rewritten body) is zeroed in its page,
        # and freed pages are zeroed whole, so no copy outlives its row (ADR 0025).
        dbapi_connection.execute("PRAGMA secure_delete=ON")

    return configure


def _on_begin(connection: Connection) -> None:
    mode = connection.get_execution_options().get(_BEGIN_OPTION, "BEGIN")
    connection.exec_driver_sql("BEGIN IMMEDIATE" if mode == "IMMEDIATE" else "BEGIN")


class SqliteDatabase:
    """One store file: an engine, its write lock, and the clock expiries are judged by."""

    def __init__(
        self, engine: Engine, clock: Clock, *, partitions: int, busy_timeout: float
    ) -> None:
        self._engine = engine
        self._writer = engine.execution_options(**{_BEGIN_OPTION: "IMMEDIATE"})
        self._clock = clock
        self._partitions = partitions
        self._busy_timeout = busy_timeout
        self._write_lock = threading.Lock()

    @property
    def clock(self) -> Clock:
        """The clock that judges vault expiries."""
        return self._clock

    @property
    def partitions(self) -> int:
        """How many partition logs the file was created with."""
        return self._partitions

    def read(self, work: Callable[[Connection], T]) -> Result[T, StoreUnavailable]:
        """Run ``work`` in a read transaction (one snapshot)."""
        try:
            with self._engine.connect() as connection:
                return Success(work(connection))
        except SQLITE_ERRORS as error:
            return Failure(StoreUnavailable(reason_of(error)))

    def write(
        self, work: Callable[[Connection], tuple[R, bool]]
    ) -> R | StoreUnavailable | UnknownOutcome:
        """Run ``work`` in a write transaction. ``work`` returns its answer and whether to
        commit; a refusal answers without committing (nothing written)."""
        if not self._write_lock.acquire(timeout=self._busy_timeout):
            return StoreUnavailable("TIMEOUT")
        try:
            return self._write_locked(work)
        finally:
            self._write_lock.release()

    def write_or_unavailable(
        self, work: Callable[[Connection], tuple[R, bool]]
    ) -> Result[R, StoreUnavailable]:
        """``write`` for a caller that holds no command id to retry with: a commit whose
        outcome is unknown is the store being unavailable (its reason, ``COMMIT_FAILED``)."""
        outcome = self.write(work)
        if isinstance(outcome, StoreUnavailable):
            return Failure(outcome)
        if isinstance(outcome, UnknownOutcome):
            return Failure(StoreUnavailable(outcome.reason))
        return Success(outcome)

    def _write_locked(
        self, work: Callable[[Connection], tuple[R, bool]]
    ) -> R | StoreUnavailable | UnknownOutcome:
        try:
            connection = self._writer.connect()
        except SQLITE_ERRORS as error:
            return StoreUnavailable(reason_of(error))
        try:
            try:
                connection.begin()
                answer, commit = work(connection)
            except SQLITE_ERRORS as error:
                _rollback_quietly(connection)
                return StoreUnavailable(reason_of(error))
            if not commit:
                _rollback_quietly(connection)
                return answer
            try:
                connection.commit()
            except SQLITE_ERRORS:
                _rollback_quietly(connection)
                return UnknownOutcome("COMMIT_FAILED")
            return answer
        finally:
            _close_quietly(connection)

    def outside_transaction(
        self, work: Callable[[sqlite3.Connection], T]
    ) -> Result[T, StoreUnavailable]:
        """Run ``work`` on a driver connection with no transaction open (checkpoints and
        ``VACUUM`` cannot run inside one), queued behind this process's writers."""
        if not self._write_lock.acquire(timeout=self._busy_timeout):
            return Failure(StoreUnavailable("TIMEOUT"))
        try:
            pooled = self._engine.raw_connection()
            try:
                driver = pooled.driver_connection
                assert isinstance(driver, sqlite3.Connection)
                return Success(work(driver))
            finally:
                pooled.close()
        except SQLITE_ERRORS as error:
            return Failure(StoreUnavailable(reason_of(error)))
        finally:
            self._write_lock.release()

    def close(self) -> None:
        """Close every pooled connection."""
        self._engine.dispose()


def _rollback_quietly(connection: Connection) -> None:
    try:
        connection.rollback()
    except SQLITE_ERRORS:
        connection.invalidate()


def _close_quietly(connection: Connection) -> None:
    try:
        connection.close()
    except SQLITE_ERRORS:  # pragma: no cover - a connection that cannot even be closed
        return


def _setup(connection: Connection, partitions: int) -> tuple[OpenFailure | None, bool]:
    metadata.create_all(connection)
    rows = connection.execute(select(store_info.c.name, store_info.c.value))
    found: dict[str, str] = dict(rows.all())
    if not found:
        connection.execute(
            insert(store_info),
            [
                {"name": "schema_version", "value": str(SCHEMA_VERSION)},
                {"name": "partitions", "value": str(partitions)},
                {"name": SECURE_SINCE_CREATION, "value": "1"},
            ],
        )
        return None, True
    version = found.get("schema_version")
    if version != str(SCHEMA_VERSION):
        return OpenFailure(OpenFailureReason.NOT_THIS_SCHEMA, version), False
    if found.get("partitions") != str(partitions):
        return OpenFailure(OpenFailureReason.PARTITIONS_CHANGED, found.get("partitions")), False
    return None, False


def open_database(
    path: Path,
    clock: Clock,
    *,
    partitions: int,
    busy_timeout: float = 5.0,
    synchronous: Synchronous = Synchronous.FULL,
) -> Result[SqliteDatabase, OpenFailure]:
    """Open (or create, with its parent folder and tables) the store file at ``path``."""
    check_partitions(partitions)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Failure(OpenFailure(OpenFailureReason.UNAVAILABLE))
    engine = create_engine(
        URL.create("sqlite+pysqlite", database=str(path)),
        connect_args={"timeout": busy_timeout, "check_same_thread": False},
        pool_timeout=busy_timeout,
    )
    event.listen(engine, "connect", _on_connect(synchronous))
    event.listen(engine, "begin", _on_begin)
    database = SqliteDatabase(engine, clock, partitions=partitions, busy_timeout=busy_timeout)
    set_up = database.write(lambda connection: _setup(connection, partitions))
    if isinstance(set_up, OpenFailure):
        database.close()
        return Failure(set_up)
    if isinstance(set_up, StoreUnavailable | UnknownOutcome):
        database.close()
        return Failure(OpenFailure(OpenFailureReason.UNAVAILABLE))
    return Success(database)
