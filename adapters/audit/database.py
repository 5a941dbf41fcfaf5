"""Opening the audit database: an engine per URL, its migrations, and errors as values.

SQLite (the embedded default, a file beside the store) runs in WAL mode with pysqlite's own
transaction handling off: every transaction here writes, so it begins with ``BEGIN
IMMEDIATE`` and holds the file's write lock from its first statement (two projector processes
queue on it instead of failing half-way). MySQL/MariaDB (pymysql) runs READ COMMITTED with
short connect, read and write timeouts, so an unreachable server is an answer, not a hang.

The schema is applied by the Alembic migrations shipped in ``migrations/`` when the store is
opened (under ``GET_LOCK`` on MySQL, inside the write lock on SQLite), so two workers starting
together migrate once.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Final

from alembic import command
from alembic.config import Config
from attrs import frozen
from returns.result import Failure, Result, Success
from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import ConnectionPoolEntry

from factledger.ports.audit import AuditUnavailable

__all__ = [
    "AUDIT_ERRORS",
    "AuditDatabase",
    "UnsupportedAuditUrl",
    "audit_engine",
    "open_audit_database",
    "reason_of",
    "upgrade",
]

AUDIT_ERRORS: Final[tuple[type[Exception], ...]] = (SQLAlchemyError, sqlite3.Error, OSError)
"""Everything a call into the audit database can raise that means it is unavailable."""

_MIGRATIONS: Final = "factledger.adapters.audit:migrations"
_MYSQL_LOCK: Final = "factledger_audit_migrations"
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
    family: str
    """``sqlite`` or ``mysql``."""

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def reason_of(error: BaseException) -> str:
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
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def audit_engine(
    url: str, *, busy_timeout: float = 10.0
) -> Result[AuditDatabase, UnsupportedAuditUrl]:
    """An engine for ``url`` (SQLite or MySQL/MariaDB through pymysql)."""
    try:
        parsed: URL = make_url(url)
    except ArgumentError:
        return Failure(UnsupportedAuditUrl("<unparsable>"))
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            parsed,
            connect_args={"timeout": busy_timeout, "check_same_thread": False},
            pool_timeout=busy_timeout,
        )
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return Success(AuditDatabase(engine, "sqlite"))
    if backend in ("mysql", "mariadb"):
        engine = create_engine(
            parsed.update_query_dict({"charset": "utf8mb4"}),
            pool_pre_ping=True,
            pool_recycle=3600,
            isolation_level="READ COMMITTED",
            connect_args={"connect_timeout": 5, "read_timeout": 30, "write_timeout": 30},
        )
        return Success(AuditDatabase(engine, "mysql"))
    return Failure(UnsupportedAuditUrl(parsed.render_as_string(hide_password=True)))


def upgrade(database: AuditDatabase) -> Result[None, AuditUnavailable]:
    """Apply every migration not applied yet (idempotent; safe from concurrent workers)."""
    config = Config()
    config.set_main_option("script_location", _MIGRATIONS)
    try:
        with database.engine.begin() as connection:
            if database.family == "mysql":
                connection.exec_driver_sql(f"SELECT GET_LOCK('{_MYSQL_LOCK}', 60)")
            try:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
            finally:
                if database.family == "mysql":
                    connection.exec_driver_sql(f"SELECT RELEASE_LOCK('{_MYSQL_LOCK}')")
    except AUDIT_ERRORS as error:
        return Failure(AuditUnavailable(reason_of(error)))
    return Success(None)


def open_audit_database(url: str) -> Result[AuditDatabase, UnsupportedAuditUrl | AuditUnavailable]:
    """Open ``url`` and bring its schema to the latest migration."""
    opened = audit_engine(url)
    if not isinstance(opened, Success):
        return Failure(opened.failure())
    database: AuditDatabase = opened.unwrap()
    migrated = upgrade(database)
    if not isinstance(migrated, Success):
        database.close()
        return Failure(migrated.failure())
    return Success(database)
