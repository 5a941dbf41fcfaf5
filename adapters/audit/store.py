"""The ``AuditStore`` on SQLAlchemy: audit rows and checkpoints in one database.

``commit`` is one transaction: (1) move the checkpoint with a compare-and-set (``UPDATE …
WHERE position = expected``; the row lock it takes is held to the end, so no other worker's
batch of that partition commits in between, and a worker whose lease lapsed finds the
checkpoint moved and writes nothing); (2) read the current rows of the batch's runs; (3) fold;
(4) write the rows with guarded upserts (``writes.py``); (5) commit. Any database error rolls
everything back and is ``AuditUnavailable``; the checkpoint then still names the last batch
that was written, so catching up later loses and duplicates nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Final

from returns.result import Failure, Result, Success
from sqlalchemy import ColumnElement, Connection, and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from factledger.adapters.audit.database import AUDIT_ERRORS, AuditDatabase, reason_of
from factledger.adapters.audit.models import (
    AuditCheckpoint,
    AuditInvocation,
    AuditModelUsage,
    AuditRun,
    table_of,
)
from factledger.adapters.audit.rows import from_columns, to_columns
from factledger.adapters.audit.writes import (
    INVOCATIONS,
    RUNS,
    USAGE,
    tables,
    writes_for,
)
from factledger.domain.run_events import ModelCallPurpose
from factledger.ports.audit import (
    AuditChanges,
    AuditCommit,
    AuditUnavailable,
    Checkpoint,
    CheckpointMoved,
    CommitOutcome,
    Fold,
    InvocationRow,
    RowsCommitted,
    RunAudit,
    RunRow,
    UsageRow,
)

__all__ = ["SqlAuditStore", "dump_rows"]

_IDS_PER_QUERY: Final = 500


CHECKPOINTS = table_of(AuditCheckpoint)


class _Moved(Exception):
    """Internal: the checkpoint was not the expected one (rolls the transaction back)."""

    def __init__(self, found: Checkpoint) -> None:
        super().__init__("checkpoint moved")
        self.found = found


def _checkpoint_where(projection: str, partition: int) -> list[ColumnElement[bool]]:
    return [CHECKPOINTS.c.projection == projection, CHECKPOINTS.c.partition == partition]


def _read_checkpoint(connection: Connection, projection: str, partition: int) -> Checkpoint:
    row = connection.execute(
        select(CHECKPOINTS.c.position, CHECKPOINTS.c.rebuilding).where(
            and_(*_checkpoint_where(projection, partition))
        )
    ).first()
    return Checkpoint(None) if row is None else Checkpoint(row[0], bool(row[1]))


class SqlAuditStore:
    """Audit rows and checkpoints on SQLite or MySQL/MariaDB; see the module docstring."""

    def __init__(self, database: AuditDatabase) -> None:
        self._db = database
        self._writes = writes_for(database.family)

    @property
    def database(self) -> AuditDatabase:
        """The database written to."""
        return self._db

    def close(self) -> None:
        """Close the database's connections."""
        self._db.close()

    # -- the port -----------------------------------------------------------------------

    def checkpoints(
        self, projection: str, partitions: int
    ) -> Result[tuple[Checkpoint, ...], AuditUnavailable]:
        def read(connection: Connection) -> tuple[Checkpoint, ...]:
            rows = connection.execute(
                select(
                    CHECKPOINTS.c.partition, CHECKPOINTS.c.position, CHECKPOINTS.c.rebuilding
                ).where(CHECKPOINTS.c.projection == projection)
            )
            found = {
                partition: Checkpoint(position, bool(flag)) for partition, position, flag in rows
            }
            return tuple(found.get(partition, Checkpoint(None)) for partition in range(partitions))

        return self._db.read(read)

    def commit(self, commit: AuditCommit, fold: Fold) -> CommitOutcome:
        try:
            with self._db.engine.begin() as connection:
                self._move_checkpoint(connection, commit)
                current = self._load(connection, commit.run_ids) if commit.run_ids else {}
                return RowsCommitted(self._write(connection, fold(current)))
        except _Moved as moved:
            return CheckpointMoved(moved.found)
        except AUDIT_ERRORS as error:
            return AuditUnavailable(reason_of(error))

    def begin_rebuild(
        self, projection: str, partitions: Sequence[int]
    ) -> Result[None, AuditUnavailable]:
        def work(connection: Connection) -> None:
            for partition in partitions:
                connection.execute(
                    delete(CHECKPOINTS).where(and_(*_checkpoint_where(projection, partition)))
                )
                connection.execute(
                    insert(CHECKPOINTS).values(
                        projection=projection, partition=partition, position=None, rebuilding=True
                    )
                )

        return self._db.write(work)

    def replace_run(
        self, projection: str, partition: int, run_id: str, changes: AuditChanges
    ) -> Result[int, AuditUnavailable]:
        def work(connection: Connection) -> int:
            self._hold_checkpoint(connection, projection, partition)
            self._delete_runs(connection, (run_id,))
            return self._write(connection, changes)

        return self._db.write(work)

    def read_run(self, run_id: str) -> Result[RunAudit | None, AuditUnavailable]:
        try:
            with Session(self._db.reader) as session, session.begin():
                run = session.get(AuditRun, run_id)
                if run is None:
                    return Success(None)
                invocations = session.scalars(
                    select(AuditInvocation).where(AuditInvocation.run_id == run_id)
                ).all()
                usage = session.scalars(
                    select(AuditModelUsage).where(AuditModelUsage.run_id == run_id)
                ).all()
                return Success(
                    RunAudit(
                        from_columns(RunRow, vars(run)),
                        {i.tool_call_id: from_columns(InvocationRow, vars(i)) for i in invocations},
                        {
                            ModelCallPurpose(u.purpose): from_columns(UsageRow, vars(u))
                            for u in usage
                        },
                    )
                )
        except AUDIT_ERRORS as error:
            return Failure(AuditUnavailable(reason_of(error)))

    # -- inside a transaction -----------------------------------------------------------

    def _move_checkpoint(self, connection: Connection, commit: AuditCommit) -> None:
        expected, then = commit.expected, commit.then
        where = _checkpoint_where(commit.projection, commit.partition)
        if expected.position is None:
            where.append(CHECKPOINTS.c.position.is_(None))
        else:
            where.append(CHECKPOINTS.c.position == expected.position)
        where.append(CHECKPOINTS.c.rebuilding == expected.rebuilding)
        moved = connection.execute(
            update(CHECKPOINTS)
            .where(and_(*where))
            .values(position=then.position, rebuilding=then.rebuilding)
        ).rowcount
        if moved == 1:
            return
        found = _read_checkpoint(connection, commit.projection, commit.partition)
        if found != Checkpoint(None) or expected != Checkpoint(None):
            raise _Moved(found)
        # The first commit of a partition: the checkpoint row does not exist yet.
        try:
            with connection.begin_nested():
                connection.execute(
                    insert(CHECKPOINTS).values(
                        projection=commit.projection,
                        partition=commit.partition,
                        position=then.position,
                        rebuilding=then.rebuilding,
                    )
                )
        except IntegrityError:
            raise _Moved(
                _read_checkpoint(connection, commit.projection, commit.partition)
            ) from None

    def _hold_checkpoint(self, connection: Connection, projection: str, partition: int) -> None:
        """Lock the partition's checkpoint row (SQLite holds the file's write lock already)."""
        if self._db.family == "mysql":
            connection.execute(
                select(CHECKPOINTS.c.position)
                .where(and_(*_checkpoint_where(projection, partition)))
                .with_for_update()
            )

    def _load(self, connection: Connection, run_ids: Sequence[str]) -> dict[str, RunAudit]:
        runs: dict[str, RunRow] = {}
        invocations: dict[str, dict[str, InvocationRow]] = defaultdict(dict)
        usage: dict[str, dict[ModelCallPurpose, UsageRow]] = defaultdict(dict)
        for start in range(0, len(run_ids), _IDS_PER_QUERY):
            chunk = list(run_ids[start : start + _IDS_PER_QUERY])
            for columns in connection.execute(
                select(RUNS).where(RUNS.c.run_id.in_(chunk))
            ).mappings():
                row = from_columns(RunRow, columns)
                runs[row.run_id] = row
            if not runs:
                continue
            held = [run_id for run_id in chunk if run_id in runs]
            for columns in connection.execute(
                select(INVOCATIONS).where(INVOCATIONS.c.run_id.in_(held))
            ).mappings():
                invocation = from_columns(InvocationRow, columns)
                invocations[invocation.run_id][invocation.tool_call_id] = invocation
            for columns in connection.execute(
                select(USAGE).where(USAGE.c.run_id.in_(held))
            ).mappings():
                used = from_columns(UsageRow, columns)
                usage[used.run_id][used.purpose] = used
        return {
            run_id: RunAudit(row, invocations.get(run_id, {}), usage.get(run_id, {}))
            for run_id, row in runs.items()
        }

    def _delete_runs(self, connection: Connection, run_ids: Sequence[str]) -> None:
        for table in tables():
            connection.execute(delete(table).where(table.c.run_id.in_(list(run_ids))))

    def _write(self, connection: Connection, changes: AuditChanges) -> int:
        if changes.reset_runs:
            self._delete_runs(connection, changes.reset_runs)
        if changes.runs:
            connection.execute(self._writes.runs, [to_columns(row) for row in changes.runs])
        if changes.invocations:
            connection.execute(
                self._writes.invocations, [to_columns(row) for row in changes.invocations]
            )
        if changes.usage:
            connection.execute(self._writes.usage, [to_columns(row) for row in changes.usage])
        if changes.transitions:
            connection.execute(
                self._writes.transitions, [to_columns(row) for row in changes.transitions]
            )
        return changes.rows


def dump_rows(store: SqlAuditStore) -> dict[str, list[tuple[object, ...]]]:
    """Every audit row, table by table, in primary-key order (for comparisons)."""
    dumped: dict[str, list[tuple[object, ...]]] = {}
    with store.database.reader.begin() as connection:
        for table in reversed(tables()):
            order = list(table.primary_key.columns)
            dumped[table.name] = [
                tuple(row) for row in connection.execute(select(table).order_by(*order))
            ]
    return dumped
