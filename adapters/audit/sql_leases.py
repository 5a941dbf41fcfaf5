"""Partition leases in the audit database, for workers of the embedded SQLite store: several
worker processes on one host share them through the audit file (or a MySQL/MariaDB audit).

A lease row names its owner and when it lapses; taking one is a conditional ``UPDATE`` (free,
lapsed, or already this owner's) or, for a lease never taken, an ``INSERT`` that a concurrent
taker's primary key refuses. Time is the workers' ``Clock`` (keep hosts in sync when the
audit is a shared MySQL/MariaDB; the Redis leases use the server's clock instead).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TypeVar

from returns.result import Result
from sqlalchemy import Connection, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from factledger.adapters.audit.database import AuditDatabase
from factledger.adapters.audit.models import (
    AuditLease,
    AuditLeaseWorker,
    put_owner_row,
    table_of,
)
from factledger.ports.clock import Clock
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["SqlLeases"]

T = TypeVar("T")


LEASES = table_of(AuditLease)
WORKERS = table_of(AuditLeaseWorker)


class SqlLeases:
    """``PartitionLeases`` on the audit database; see the module docstring."""

    def __init__(self, database: AuditDatabase, clock: Clock) -> None:
        self._db = database
        self._clock = clock

    def heartbeat(self, owner: str, ttl: timedelta) -> Result[int, StoreUnavailable]:
        now = self._clock.now()

        def work(connection: Connection) -> int:
            put_owner_row(connection, WORKERS, owner, {"alive_until": now + ttl})
            connection.execute(delete(WORKERS).where(WORKERS.c.alive_until <= now))
            return int(connection.execute(select(func.count()).select_from(WORKERS)).scalar_one())

        return self._transaction(work)

    def acquire(self, partition: int, owner: str, ttl: timedelta) -> Result[bool, StoreUnavailable]:
        now = self._clock.now()
        return self._transaction(lambda connection: _take(connection, partition, owner, now, ttl))

    def release(self, partition: int, owner: str) -> Result[None, StoreUnavailable]:
        def work(connection: Connection) -> None:
            connection.execute(
                delete(LEASES).where(LEASES.c.lease == partition, LEASES.c.owner == owner)
            )

        return self._transaction(work)

    def leave(self, owner: str) -> Result[None, StoreUnavailable]:
        def work(connection: Connection) -> None:
            connection.execute(delete(WORKERS).where(WORKERS.c.owner == owner))

        return self._transaction(work)

    def _transaction(self, work: Callable[[Connection], T]) -> Result[T, StoreUnavailable]:
        return self._db.write(work).alt(lambda failed: StoreUnavailable(failed.reason))


def _take(
    connection: Connection, partition: int, owner: str, now: datetime, ttl: timedelta
) -> bool:
    taken = connection.execute(
        update(LEASES)
        .where(
            LEASES.c.lease == partition,
            or_(LEASES.c.owner == owner, LEASES.c.expires_at <= now),
        )
        .values(owner=owner, expires_at=now + ttl)
    ).rowcount
    if taken == 1:
        return True
    held = connection.execute(select(LEASES.c.owner).where(LEASES.c.lease == partition)).first()
    if held is not None:
        return False
    try:
        with connection.begin_nested():
            connection.execute(
                insert(LEASES).values(lease=partition, owner=owner, expires_at=now + ttl)
            )
    except IntegrityError:
        return False
    return True
