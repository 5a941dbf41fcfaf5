"""The tables of the embedded store: one SQLite file holds events, run metadata, guards,
partition logs and vault bodies, so one transaction can write them all.

Times are integers: microseconds since the Unix epoch, UTC (exact, and ordered as numbers).
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
)

__all__ = [
    "SCHEMA_VERSION",
    "commands",
    "counters",
    "events",
    "metadata",
    "partition_log",
    "run_meta",
    "runs",
    "store_info",
    "unique_keys",
    "vault",
]

SCHEMA_VERSION: Final = 1
"""The layout this code reads and writes (kept in ``store_info``)."""

metadata = MetaData()

store_info = Table(
    "store_info",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
"""Facts fixed when the file is created: ``schema_version`` and ``partitions``."""

runs = Table(
    "runs",
    metadata,
    Column("run_id", String(64), primary_key=True),
    Column("partition", Integer, nullable=False),
    Column("head_sequence", Integer, nullable=False),
    Column("head_hash", String(64), nullable=False),
    Column("started_at", BigInteger, nullable=True),
    Index("runs_by_start", "started_at"),
)
"""One row per run: the chain head kept outside the events, and when the run started."""

run_meta = Table(
    "run_meta",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("value", Text, nullable=False),
    PrimaryKeyConstraint("run_id", "name"),
    sqlite_with_rowid=False,
)
"""Run metadata fields set by appends (``state``)."""

events = Table(
    "events",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("sequence", Integer, nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("hash", String(64), nullable=False),
    PrimaryKeyConstraint("run_id", "sequence"),
    sqlite_with_rowid=False,
)
"""Every run's stream: the canonical bytes and the chain hash, clustered by run and
sequence (the primary key refuses a second event with the same sequence)."""

partition_log = Table(
    "partition_log",
    metadata,
    Column("position", Integer, primary_key=True, autoincrement=True),
    Column("partition", Integer, nullable=False),
    Column("run_id", String(64), nullable=False),
    Column("sequence", Integer, nullable=False),
    Index("partition_log_by_partition", "partition", "position"),
    sqlite_autoincrement=True,
)
"""One global, append-ordered log: a position per event, never reused (AUTOINCREMENT), read
per partition from a checkpoint. The bytes stay in ``events``."""

unique_keys = Table(
    "unique_keys",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("key", String(200), nullable=False),
    PrimaryKeyConstraint("run_id", "key"),
    sqlite_with_rowid=False,
)
"""Keys taken in a run (``tool_call_id:<id>``)."""

counters = Table(
    "counters",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("value", BigInteger, nullable=False),
    PrimaryKeyConstraint("run_id", "name"),
    sqlite_with_rowid=False,
)
"""Budget counters of a run."""

commands = Table(
    "commands",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("command_id", String(128), nullable=False),
    Column("head_sequence", Integer, nullable=False),
    Column("head_hash", String(64), nullable=False),
    PrimaryKeyConstraint("run_id", "command_id"),
    sqlite_with_rowid=False,
)
"""Committed command ids of a run, with the head each one left (idempotent retries)."""

vault = Table(
    "vault",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("tool_call_id", String(128), nullable=False),
    Column("part", String(16), nullable=False),
    Column("body", LargeBinary, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    PrimaryKeyConstraint("run_id", "tool_call_id", "part"),
    Index("vault_by_expiry", "expires_at"),
)
"""Request, raw and result bodies with their absolute expiry."""
