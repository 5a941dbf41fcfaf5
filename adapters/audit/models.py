"""The audit tables as typed SQLAlchemy 2.0 ORM models (for reading); the projector writes
them with batched Core statements over the same tables (``writes.py``).

Times are UTC, microsecond-exact (``DATETIME(6)`` on MySQL/MariaDB); enumerations are their
string values. No column holds a body, a query, SQL text or a literal. The worker tables
(leases for the embedded store, whose workers may be several processes, and each worker's
health record) live here too: every worker writes to the audit database, whatever the store.
The schema is created and changed only by the Alembic migrations in ``migrations/`` (a test
checks they agree with these models).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final

from sqlalchemy import (
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    Dialect,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    insert,
    update,
)
from sqlalchemy.dialects import mysql
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "AuditBase",
    "AuditCheckpoint",
    "AuditInvocation",
    "AuditLease",
    "AuditLeaseWorker",
    "AuditModelUsage",
    "AuditRun",
    "AuditTransition",
    "AuditWorkerHealth",
    "CODE",
    "ID",
    "UtcDateTime",
    "put_owner_row",
    "table_of",
]

ID: Final = 128
"""Length of id columns (tool_call_id is at most 128 characters, run ids 64)."""
CODE: Final = 64
"""Length of code columns."""

_NAMING = {
    "pk": "pk_%(table_name)s",
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
}


class UtcDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime stored as a naive UTC one, to the microsecond."""

    impl = DateTime
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> object:  # type: ignore[override]  # returns a TypeEngine
        if dialect.name in ("mysql", "mariadb"):
            return dialect.type_descriptor(mysql.DATETIME(fsp=6))
        return dialect.type_descriptor(DateTime())

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("audit times must be timezone-aware")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class AuditBase(DeclarativeBase):
    """The declarative base of the audit tables."""

    metadata = MetaData(naming_convention=_NAMING)


def table_of(model: type[AuditBase]) -> Table:
    """The Core table behind an audit model (the projector writes with batched Core
    statements over the same tables the models read)."""
    table = model.__table__
    assert isinstance(table, Table)
    return table


def put_owner_row(
    connection: Connection, table: Table, owner: str, values: dict[str, object]
) -> None:
    """Set the row of a worker's table (keyed by ``owner``) to ``values``: an update, or an
    insert when the worker has no row yet (the same statements on every dialect)."""
    updated = connection.execute(update(table).where(table.c.owner == owner).values(**values))
    if updated.rowcount == 0:
        connection.execute(insert(table).values(owner=owner, **values))


class AuditRun(AuditBase):
    """One row per run: its outcome, counters, model usage totals and chain head."""

    __tablename__ = "audit_runs"

    run_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    partition: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
    ended_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    state: Mapped[str | None] = mapped_column(String(CODE))
    failure_code: Mapped[str | None] = mapped_column(String(CODE))
    application_status: Mapped[str | None] = mapped_column(String(CODE))
    stop_reason: Mapped[str | None] = mapped_column(String(CODE))
    release_outcome: Mapped[str | None] = mapped_column(String(CODE))
    fallback_type: Mapped[str | None] = mapped_column(String(CODE))
    failure_stage: Mapped[str | None] = mapped_column(String(CODE))
    release_failure_code: Mapped[str | None] = mapped_column(String(CODE))
    released_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    guard_passed: Mapped[bool | None] = mapped_column(Boolean)
    repair_attempts: Mapped[int] = mapped_column(Integer)
    semantic_verdict: Mapped[str | None] = mapped_column(String(CODE))
    semantic_attempts: Mapped[int] = mapped_column(Integer)
    tool_calls: Mapped[int] = mapped_column(Integer)
    invocations_ready: Mapped[int] = mapped_column(Integer)
    invocations_failed: Mapped[int] = mapped_column(Integer)
    protocol_violations: Mapped[int] = mapped_column(Integer)
    duplicate_scopes: Mapped[int] = mapped_column(Integer)
    rejected_observations: Mapped[int] = mapped_column(Integer)
    model_calls: Mapped[int] = mapped_column(Integer)
    prompt_tokens: Mapped[int] = mapped_column(BigInteger)
    completion_tokens: Mapped[int] = mapped_column(BigInteger)
    undecodable_events: Mapped[int] = mapped_column(Integer)
    last_sequence: Mapped[int] = mapped_column(Integer)
    head_hash: Mapped[str] = mapped_column(String(64))


class AuditInvocation(AuditBase):
    """One row per tool call that began."""

    __tablename__ = "audit_invocations"

    run_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    tool_call_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    tool_name: Mapped[str] = mapped_column(String(ID))
    step: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(CODE))
    evidence_status: Mapped[str | None] = mapped_column(String(CODE))
    error_code: Mapped[str | None] = mapped_column(String(CODE))
    error_reason: Mapped[str | None] = mapped_column(String(CODE))
    started_at: Mapped[datetime] = mapped_column(UtcDateTime)
    completed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    latency_us: Mapped[int | None] = mapped_column(BigInteger)
    request_bytes: Mapped[int] = mapped_column(BigInteger)
    raw_bytes: Mapped[int | None] = mapped_column(BigInteger)
    projection_bytes: Mapped[int | None] = mapped_column(BigInteger)
    truncated: Mapped[bool | None] = mapped_column(Boolean)
    last_sequence: Mapped[int] = mapped_column(Integer)


class AuditTransition(AuditBase):
    """A state change of a run (RUN_STATE or APPLICATION_STATUS); each target state once."""

    __tablename__ = "audit_transitions"

    run_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    layer: Mapped[str] = mapped_column(String(32), primary_key=True)
    to_state: Mapped[str] = mapped_column(String(CODE), primary_key=True)
    sequence: Mapped[int] = mapped_column(Integer)
    from_state: Mapped[str | None] = mapped_column(String(CODE))
    at: Mapped[datetime] = mapped_column(UtcDateTime)


class AuditModelUsage(AuditBase):
    """Model calls and tokens of one purpose in one run."""

    __tablename__ = "audit_model_usage"

    run_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(32), primary_key=True)
    calls: Mapped[int] = mapped_column(Integer)
    prompt_tokens: Mapped[int] = mapped_column(BigInteger)
    completion_tokens: Mapped[int] = mapped_column(BigInteger)
    last_sequence: Mapped[int] = mapped_column(Integer)


class AuditCheckpoint(AuditBase):
    """Where each projection stands in each partition log."""

    __tablename__ = "audit_checkpoints"

    projection: Mapped[str] = mapped_column(String(32), primary_key=True)
    partition: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    position: Mapped[str | None] = mapped_column(String(64))
    rebuilding: Mapped[bool] = mapped_column(Boolean)


# -- workers (ADR 0024) ------------------------------------------------------------------


class AuditLease(AuditBase):
    """Who holds a partition (or the maintenance lease, ``-1``) and until when."""

    __tablename__ = "audit_leases"

    lease: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    owner: Mapped[str] = mapped_column(String(ID))
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)


class AuditLeaseWorker(AuditBase):
    """A worker's lease heartbeat: it counts as alive until ``alive_until``."""

    __tablename__ = "audit_lease_workers"

    owner: Mapped[str] = mapped_column(String(ID), primary_key=True)
    alive_until: Mapped[datetime] = mapped_column(UtcDateTime)


class AuditWorkerHealth(AuditBase):
    """The last health record of one worker."""

    __tablename__ = "audit_worker_health"

    owner: Mapped[str] = mapped_column(String(ID), primary_key=True)
    state: Mapped[str] = mapped_column(String(CODE))
    started_at: Mapped[datetime] = mapped_column(UtcDateTime)
    beat_at: Mapped[datetime] = mapped_column(UtcDateTime, index=True)
    partitions: Mapped[str] = mapped_column(Text)
    maintenance: Mapped[bool] = mapped_column(Boolean)
    projected_events: Mapped[int] = mapped_column(BigInteger)
    caught_up_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    purged_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    purged_bodies: Mapped[int] = mapped_column(BigInteger)
    swept_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    failure: Mapped[str | None] = mapped_column(String(CODE))
