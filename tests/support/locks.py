"""Locks held by someone else: another process holding a SQLite file's write lock, another
MariaDB connection holding a table locked. Each is taken before the ``with`` body runs (the
holder says so) and given up when it ends."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

_HOLDER = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
connection.execute("BEGIN " + sys.argv[2])
print("locked", flush=True)
sys.stdin.read()
"""

SqliteLock = Literal["IMMEDIATE", "EXCLUSIVE"]


@contextmanager
def sqlite_lock_held(path: Path, mode: SqliteLock = "IMMEDIATE") -> Iterator[None]:
    """Another process holds ``path`` with ``BEGIN <mode>`` until the block ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(path), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdin is not None
    try:
        line = holder.stdout.readline()
        assert line.strip() == "locked", f"the lock holder said {line!r}"
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)


@contextmanager
def mariadb_tables_locked(url: str, *tables: str) -> Iterator[None]:
    """Another connection holds ``LOCK TABLES … WRITE`` on ``tables`` until the block ends."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("LOCK TABLES " + ", ".join(f"`{t}` WRITE" for t in tables))
            yield
            connection.exec_driver_sql("UNLOCK TABLES")
    finally:
        engine.dispose()
