"""A store file written before secure delete was switched on keeps old bodies in its free
space; its first compaction rewrites it once, after which none is left."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.sqlite.database import SECURE_SINCE_CREATION
from factledger.adapters.sqlite.stores import open_sqlite_stores
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadWrite
from tests.unit.test_vault_contract import read_folder

T0 = datetime(2026, 5, 1, tzinfo=UTC)


def _as_an_older_version_left_it(path: Path, secret: bytes) -> None:
    """Bodies written and deleted without secure delete, and no mark of it in the file."""
    with closing(sqlite3.connect(path, isolation_level=None)) as connection:
        connection.execute("PRAGMA secure_delete=OFF")
        connection.execute("DELETE FROM store_info WHERE name = ?", (SECURE_SINCE_CREATION,))
        for n in range(20):
            connection.execute(
                "INSERT INTO vault VALUES (?, ?, 'raw', ?, ?)",
                ("run-old", f"c{n}", secret + b"." * 500 * n, 1),
            )
        connection.execute("DELETE FROM vault")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def test_the_first_compaction_rewrites_a_file_from_before_secure_delete(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    clock = ManualClock(T0)
    stores = open_sqlite_stores(path, clock, partitions=2).unwrap()
    stores.close()
    secret = b"sk_live_from_an_older_version"
    _as_an_older_version_left_it(path, secret)
    assert secret in read_folder(tmp_path), "the old version left the bytes in free space"
    stores = open_sqlite_stores(path, clock, partitions=2).unwrap()
    kept = PayloadKey("run-new", "c1", PayloadPart.RAW)
    stores.vault.put([PayloadWrite(kept, b"live body", T0 + timedelta(hours=1))])
    purged = stores.vault.purge_expired().unwrap()
    assert purged.compacted
    assert secret not in read_folder(tmp_path)
    assert stores.vault.get_many([kept]).unwrap() == (b"live body",)
    with closing(sqlite3.connect(path)) as connection:
        marked = connection.execute(
            "SELECT value FROM store_info WHERE name = ?", (SECURE_SINCE_CREATION,)
        ).fetchone()
    assert marked == ("1",)
    stores.close()
