"""Opening the embedded store: the event store and the vault over one SQLite file."""

from __future__ import annotations

from pathlib import Path

from attrs import frozen
from returns.result import Result

from factledger.adapters.sqlite.database import (
    OpenFailure,
    SqliteDatabase,
    Synchronous,
    open_database,
)
from factledger.adapters.sqlite.event_store import SqliteEventStore
from factledger.adapters.sqlite.payload_vault import SqlitePayloadVault
from factledger.ports.clock import Clock

__all__ = ["SqliteStores", "open_sqlite_stores"]


@frozen
class SqliteStores:
    """The two adapters sharing one file (one transaction writes events and bodies)."""

    database: SqliteDatabase
    """The file."""
    events: SqliteEventStore
    """The event store."""
    vault: SqlitePayloadVault
    """The payload vault."""

    def close(self) -> None:
        """Close the file's connections."""
        self.database.close()


def open_sqlite_stores(
    path: Path,
    clock: Clock,
    *,
    partitions: int,
    busy_timeout: float = 5.0,
    synchronous: Synchronous = Synchronous.FULL,
) -> Result[SqliteStores, OpenFailure]:
    """Open (or create) the store file at ``path``; its parent folder is created if missing."""
    return open_database(
        path, clock, partitions=partitions, busy_timeout=busy_timeout, synchronous=synchronous
    ).map(
        lambda database: SqliteStores(
            database, SqliteEventStore(database), SqlitePayloadVault(database)
        )
    )
