"""Worker health records in the audit database (``WorkerHealthStore``; ADR 0024).

One row per worker, replaced at every beat; rows of workers not heard from for a week are
removed when another record is written, so a fleet that came and went leaves no pile behind.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

from returns.result import Result
from sqlalchemy import Connection, RowMapping, delete, select

from factledger.adapters.audit.database import AuditDatabase
from factledger.adapters.audit.models import AuditWorkerHealth, put_owner_row, table_of
from factledger.ports.audit import AuditUnavailable
from factledger.ports.worker_health import WorkerBeat, WorkerProblem, WorkerState

__all__ = ["SqlWorkerHealth"]

_FORGET_AFTER: Final = timedelta(days=7)


HEALTH = table_of(AuditWorkerHealth)


def _columns(beat: WorkerBeat) -> dict[str, object]:
    return {
        "state": beat.state.value,
        "started_at": beat.started_at,
        "beat_at": beat.beat_at,
        "partitions": ",".join(str(partition) for partition in beat.partitions),
        "maintenance": beat.maintenance,
        "projected_events": beat.projected_events,
        "caught_up_at": beat.caught_up_at,
        "purged_at": beat.purged_at,
        "purged_bodies": beat.purged_bodies,
        "swept_at": beat.swept_at,
        "failure": None if beat.failure is None else beat.failure.value,
    }


def _beat(row: RowMapping) -> WorkerBeat:
    failure = row["failure"]
    return WorkerBeat(
        owner=row["owner"],
        state=WorkerState(row["state"]),
        started_at=row["started_at"],
        beat_at=row["beat_at"],
        partitions=tuple(int(part) for part in str(row["partitions"]).split(",") if part),
        maintenance=bool(row["maintenance"]),
        projected_events=int(row["projected_events"]),
        caught_up_at=row["caught_up_at"],
        purged_at=row["purged_at"],
        purged_bodies=int(row["purged_bodies"]),
        swept_at=row["swept_at"],
        failure=None if failure is None else WorkerProblem(failure),
    )


class SqlWorkerHealth:
    """Health records on SQLite or MySQL/MariaDB; see the module docstring."""

    def __init__(self, database: AuditDatabase) -> None:
        self._db = database

    def record(self, beat: WorkerBeat) -> Result[None, AuditUnavailable]:
        columns = _columns(beat)

        def work(connection: Connection) -> None:
            put_owner_row(connection, HEALTH, beat.owner, columns)
            connection.execute(
                delete(HEALTH).where(HEALTH.c.beat_at < beat.beat_at - _FORGET_AFTER)
            )

        return self._db.write(work)

    def beats(self, since: datetime) -> Result[tuple[WorkerBeat, ...], AuditUnavailable]:
        query = select(HEALTH).where(HEALTH.c.beat_at >= since).order_by(HEALTH.c.owner)

        def read(connection: Connection) -> tuple[WorkerBeat, ...]:
            return tuple(_beat(row) for row in connection.execute(query).mappings().all())

        return self._db.read(read)
