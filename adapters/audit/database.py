"""Opening the audit database: an engine per URL, its migrations, and errors as values.

SQLite (the embedded default, a file beside the store) runs in WAL mode with pysqlite's own
transaction handling off: a transaction that writes begins with ``BEGIN IMMEDIATE`` and holds
the file's write lock from its first statement (two projector processes queue on it instead
of failing half-way); a read (``AuditDatabase.reader``) begins a deferred transaction, which a
writer never blocks. MySQL/MariaDB (pymysql) runs READ COMMITTED.

Every wait is bounded by ``timeout`` (seconds): SQLite's busy timeout and the pool's, and on
MySQL/MariaDB the connect, read and write timeouts and the session's lock waits. A locked or
unreachable audit database is an ``AuditUnavailable`` answer after about that long, never a
hang: the views a caller waits on open it with ``[audit] timeout_seconds`` (0.5 s), the
worker with its own longer ``[worker] audit_timeout_seconds``.

The schema is applied by the Alembic migrations shipped in ``migrations/`` when the store is
opened (under ``GET_LOCK`` on MySQL, inside the write lock on SQLite), so two workers starting
together migrate once.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Final, Literal, TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from attrs import frozen
from returns.result import Failure, Result, Success
from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import ConnectionPoolEntry

from factledger.ports.audit import AuditUnavailable
from factledger.ports.store_errors import StoreFailureReason

__all__ = [
    "AUDIT_ERRORS",
    "DEFAULT_TIMEOUT",
    "AuditDatabase",
    "UnsupportedAuditUrl",
    "audit_engine",
    "open_audit_database",
    "reason_of",
    "upgrade",
]

AUDIT_ERRORS: Final[tuple[type[Exception], ...]] = (SQLAlchemyError, sqlite3.Error, OSError)
"""Everything a call into the audit database can raise that means it is unavailable."""

T = TypeVar("T")

_MIGRATIONS: Final = "factledger.adapters.audit:migrations"
_READ_OPTION: Final = "factledger_read"
_VERSIONS: Final = "audit_schema_version"
_MYSQL_LOCK: Final = "factledger_audit_migrations"
DEFAULT_TIMEOUT: Final = 5.0
"""Seconds an audit operation may wait for a lock or the server unless told otherwise."""
_CONNECTION_ERRNOS: Final = frozenset({2003, 2006, 2013, 2055, 1045, 1044, 1142, 1143, 1227})


@frozen
class UnsupportedAuditUrl:
    """The ``[audit] url`` names a database this adapter does not write to."""

    url: str
    """The URL, without its password."""


@frozen
class AuditDatabase:
    """An engine and the dialect family its writes are built for."""

    engine: Engine
    """The engine."""
    family: Literal["sqlite", "mysql"]
    """The dialect family."""

    @property
    def reader(self) -> Engine:
        """The engine for read-only transactions (deferred on SQLite: a writer never blocks
        them)."""
        return self.engine.execution_options(**{_READ_OPTION: True})

    def write(self, work: Callable[[Connection], T]) -> Result[T, AuditUnavailable]:
        """``work`` in one write transaction, or why the database could not be used."""
        return _within(self.engine, work)

    def read(self, work: Callable[[Connection], T]) -> Result[T, AuditUnavailable]:
        """``work`` in one read-only transaction, or why the database could not be used."""
        return _within(self.reader, work)

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def _within(engine: Engine, work: Callable[[Connection], T]) -> Result[T, AuditUnavailable]:
    try:
        with engine.begin() as connection:
            return Success(work(connection))
    except AUDIT_ERRORS as error:
        return Failure(AuditUnavailable(reason_of(error)))


def reason_of(error: BaseException) -> StoreFailureReason:
    """A short code: ``TIMEOUT``, ``CONNECTION`` (unreachable, refused, or not allowed) or
    ``SERVER_ERROR``; never the driver's text."""
    if isinstance(error, PoolTimeout):
        return "TIMEOUT"
    cause: BaseException | None = error.orig if isinstance(error, DBAPIError) else error
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return "CONNECTION"
    if isinstance(cause, sqlite3.OperationalError):
        return "TIMEOUT" if "locked" in str(cause) else "CONNECTION"
    args = getattr(cause, "args", ())
    if args and isinstance(args[0], int) and args[0] in _CONNECTION_ERRNOS:
        return "CONNECTION"
    if isinstance(cause, OSError):
        return "CONNECTION"
    return "SERVER_ERROR"


def _sqlite_connect(dbapi_connection: object, _: ConnectionPoolEntry) -> None:
    if not isinstance(dbapi_connection, sqlite3.Connection):  # pragma: no cover
        return
    dbapi_connection.isolation_level = None
    dbapi_connection.execute("PRAGMA journal_mode=WAL")
    dbapi_connection.execute("PRAGMA synchronous=NORMAL")


def _sqlite_begin(connection: Connection) -> None:
    read = connection.get_execution_options().get(_READ_OPTION, False)
    connection.exec_driver_sql("BEGIN" if read else "BEGIN IMMEDIATE")


def _mysql_session(timeout: float) -> Callable[[object, ConnectionPoolEntry], None]:
    # Lock waits are whole seconds on the server; the socket's read timeout ends a wait
    # sooner when ``timeout`` is shorter.
    seconds = max(1, math.ceil(timeout))

    def configure(dbapi_connection: object, _: ConnectionPoolEntry) -> None:
        cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]  # a DB-API connection
        try:
            cursor.execute(f"SET SESSION innodb_lock_wait_timeout = {seconds}")
            cursor.execute(f"SET SESSION lock_wait_timeout = {seconds}")
        finally:
            cursor.close()

    return configure


def _sqlite_engine(parsed: URL, timeout: float) -> Engine:
    database = parsed.database
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        parsed,
        connect_args={"timeout": timeout, "check_same_thread": False},
        pool_timeout=timeout,
    )
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _mysql_engine(parsed: URL, timeout: float) -> Engine:
    engine = create_engine(
        parsed.update_query_dict({"charset": "utf8mb4"}),
        pool_pre_ping=True,
        pool_recycle=3600,
        pool_timeout=timeout,
        isolation_level="READ COMMITTED",
        connect_args={
            "connect_timeout": timeout,
            "read_timeout": timeout,
            "write_timeout": timeout,
        },
    )
    event.listen(engine, "connect", _mysql_session(timeout))
    return engine


def audit_engine(
    url: str, *, timeout: float = DEFAULT_TIMEOUT
) -> Result[AuditDatabase, UnsupportedAuditUrl]:
    """An engine for ``url`` (SQLite or MySQL/MariaDB through pymysql); every wait for a lock
    or the server is bounded by ``timeout`` seconds."""
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout!r}")
    try:
        parsed: URL = make_url(url)
    except ArgumentError:
        return Failure(UnsupportedAuditUrl("<unparsable>"))
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return Success(AuditDatabase(_sqlite_engine(parsed, timeout), "sqlite"))
    if backend in ("mysql", "mariadb"):
        return Success(AuditDatabase(_mysql_engine(parsed, timeout), "mysql"))
    return Failure(UnsupportedAuditUrl(parsed.render_as_string(hide_password=True)))


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", _MIGRATIONS)
    return config


def _at_head(database: AuditDatabase, config: Config) -> bool:
    """Whether every migration is applied, read without taking a write lock."""
    heads = set(ScriptDirectory.from_config(config).get_heads())
    with database.reader.connect() as connection:
        context = MigrationContext.configure(connection, opts={"version_table": _VERSIONS})
        return set(context.get_current_heads()) == heads


def upgrade(database: AuditDatabase, *, lock_wait: float = 60.0) -> Result[None, AuditUnavailable]:
    """Apply every migration not applied yet (idempotent; safe from concurrent workers). A
    schema already at the latest migration is only read, so a database another connection
    holds locked still opens."""
    config = _config()
    try:
        if _at_head(database, config):
            return Success(None)
        with database.engine.begin() as connection:
            if database.family == "mysql":
                wait = max(1, math.ceil(lock_wait))
                connection.exec_driver_sql(f"SELECT GET_LOCK('{_MYSQL_LOCK}', {wait})")
            try:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
            finally:
                if database.family == "mysql":
                    connection.exec_driver_sql(f"SELECT RELEASE_LOCK('{_MYSQL_LOCK}')")
    except AUDIT_ERRORS as error:
        return Failure(AuditUnavailable(reason_of(error)))
    return Success(None)


def open_audit_database(
    url: str, *, timeout: float = DEFAULT_TIMEOUT
) -> Result[AuditDatabase, UnsupportedAuditUrl | AuditUnavailable]:
    """Open ``url`` and bring its schema to the latest migration; waits are bounded by
    ``timeout`` seconds."""
    opened = audit_engine(url, timeout=timeout)
    if not isinstance(opened, Success):
        return Failure(opened.failure())
    database: AuditDatabase = opened.unwrap()
    migrated = upgrade(database, lock_wait=timeout)
    if not isinstance(migrated, Success):
        database.close()
        return Failure(migrated.failure())
    return Success(database)
