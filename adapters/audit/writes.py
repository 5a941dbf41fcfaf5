"""The projector's batched Core statements, per dialect family.

A row is upserted with a guard: an existing row is only overwritten by one whose
``last_sequence`` is higher, so re-applying an event changes nothing (SQLite: ``ON CONFLICT
… DO UPDATE … WHERE``; MySQL/MariaDB: ``ON DUPLICATE KEY UPDATE`` with every column set
conditionally and ``last_sequence`` set last, as MySQL assigns left to right). Transition
rows are inserted once and never updated. Every statement is executed once per batch with a
list of parameter sets (pymysql turns it into one multi-row ``INSERT``).
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen
from sqlalchemy import Column, Table, case
from sqlalchemy.dialects.mysql import insert as mysql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.sql.dml import Insert

from factledger.adapters.audit.models import (
    AuditInvocation,
    AuditModelUsage,
    AuditRun,
    AuditTransition,
    table_of,
)

__all__ = ["INVOCATIONS", "RUNS", "TRANSITIONS", "USAGE", "Writes", "tables", "writes_for"]


RUNS = table_of(AuditRun)
INVOCATIONS = table_of(AuditInvocation)
USAGE = table_of(AuditModelUsage)
TRANSITIONS = table_of(AuditTransition)


def _data_columns(table: Table) -> list[Column[object]]:
    return [column for column in table.columns if not column.primary_key]


def _guarded_sqlite(table: Table) -> Insert:
    statement = sqlite_insert(table)
    return statement.on_conflict_do_update(
        index_elements=list(table.primary_key.columns),
        set_={column.name: statement.excluded[column.name] for column in _data_columns(table)},
        where=statement.excluded.last_sequence > table.c.last_sequence,
    )


def _guarded_mysql(table: Table) -> Insert:
    statement = mysql_insert(table)
    newer = statement.inserted.last_sequence > table.c.last_sequence
    ordered = [
        (column.name, case((newer, statement.inserted[column.name]), else_=column))
        for column in _data_columns(table)
        if column.name != "last_sequence"
    ]
    ordered.append(
        (
            "last_sequence",
            case((newer, statement.inserted.last_sequence), else_=table.c.last_sequence),
        )
    )
    return statement.on_duplicate_key_update(ordered)


def _once_sqlite(table: Table) -> Insert:
    return sqlite_insert(table).on_conflict_do_nothing()


def _once_mysql(table: Table) -> Insert:
    statement = mysql_insert(table)
    return statement.on_duplicate_key_update([("sequence", table.c.sequence)])


@frozen
class Writes:
    """The statements of one dialect family."""

    runs: Insert
    invocations: Insert
    usage: Insert
    transitions: Insert


def writes_for(family: str) -> Writes:
    """The statements for ``sqlite`` or ``mysql``."""
    guarded = _guarded_mysql if family == "mysql" else _guarded_sqlite
    once = _once_mysql if family == "mysql" else _once_sqlite
    return Writes(guarded(RUNS), guarded(INVOCATIONS), guarded(USAGE), once(TRANSITIONS))


def tables() -> Sequence[Table]:
    """Every row table (not the checkpoints), in the order rows are deleted."""
    return (TRANSITIONS, USAGE, INVOCATIONS, RUNS)
