"""Compacting the store file so that deleted bodies leave no bytes behind (ADR 0025).

Every connection deletes with ``secure_delete`` on (``database.py``): a deleted or rewritten
row is zeroed in its page and a freed page is zeroed whole. The zeroed pages reach the main
file at a checkpoint, while the write-ahead log can still hold older copies of those pages
(frames past the point a reset log was rewritten to, or not yet checkpointed). Compaction
therefore checkpoints the log into the file and truncates it to zero bytes
(``wal_checkpoint(TRUNCATE)``, which waits for readers of older snapshots up to the busy
timeout). A file created before secure delete was switched on may still hold old content in
free space: its first compaction rewrites it once with ``VACUUM`` and marks it. The
shared-memory index (``-shm``) holds page numbers and checksums, never content; temporary
files of sorts and ``VACUUM`` are unlinked as soon as SQLite creates them.
"""

from __future__ import annotations

import sqlite3

from returns.result import Result

from factledger.adapters.sqlite.database import SECURE_SINCE_CREATION, SqliteDatabase
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["compact"]


def _rewrite_once(connection: sqlite3.Connection) -> None:
    marked = connection.execute(
        "SELECT 1 FROM store_info WHERE name = ?", (SECURE_SINCE_CREATION,)
    ).fetchone()
    if marked is not None:
        return
    connection.execute("VACUUM")
    connection.execute(
        "INSERT OR REPLACE INTO store_info (name, value) VALUES (?, '1')",
        (SECURE_SINCE_CREATION,),
    )


def _checkpoint(connection: sqlite3.Connection) -> bool:
    _rewrite_once(connection)
    busy, _, _ = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return int(busy) == 0


def compact(database: SqliteDatabase) -> Result[bool, StoreUnavailable]:
    """Checkpoint the write-ahead log into the file and truncate it (rewriting a file that
    predates secure delete first); ``False`` when a reader kept the log from being reset."""
    return database.outside_transaction(_checkpoint)
