"""Running approved plans on a SQLite file, read-only.

The plan carries its SQLite text (transpiled by the validator). The file is opened through a
``mode=ro`` URI with ``PRAGMA query_only``; an authorizer lets the statement read only the
allowlisted tables and columns (SQLite's counterpart of column-level grants) and refuses
every other action; a progress handler stops the statement at its time limit. Before it runs,
``EXPLAIN QUERY PLAN`` and each allowlisted table's size (its largest rowid, read from the
b-tree, no row) feed the cost gate: a plan that would examine more rows than the datasource
allows is refused (COST_TOO_HIGH).
"""

from __future__ import annotations

import sqlite3
import time
import urllib.parse
from pathlib import Path

import sqlglot
from returns.result import Result, Success
from sqlglot import exp
from sqlglot.errors import SqlglotError

from factledger.adapters.sql.admission import AdmittingExecutor, failed
from factledger.adapters.sql.values import to_json_scalar
from factledger.domain.json_types import JsonScalar
from factledger.domain.sql.cost import CostLimits, explain_sqlite
from factledger.domain.sql.plan import QueryPlan
from factledger.domain.sql.policy import SqlPolicy
from factledger.domain.sql.raw_result import encode_raw_result
from factledger.ports.sql import SqlExecutionFailure, SqlFailureCode

__all__ = ["SqliteExecutor", "sqlite_path"]

_PROGRESS_STEPS = 1000
"""SQLite virtual-machine instructions between two looks at the clock."""
_SQLITE_INTERRUPT = 9
_SQLITE_AUTH = 23
_SQLITE_CANTOPEN = 14
_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SCHEMAS = frozenset({None, "main"})


def sqlite_path(url: str) -> Path:
    """The file a ``sqlite:///path`` URL names (``sqlite:////abs/path`` is absolute)."""
    return Path(url.removeprefix("sqlite:///"))


class SqliteExecutor(AdmittingExecutor):
    """One SQLite datasource."""

    def __init__(
        self,
        policy: SqlPolicy,
        url: str,
        *,
        max_time_limit_seconds: float = 30.0,
        cost_limits: CostLimits | None = None,
    ) -> None:
        super().__init__(policy.datasource, "sqlite", max_time_limit_seconds)
        self._cost_limits = cost_limits or CostLimits()
        self._path = sqlite_path(url).resolve()
        self._readable = frozenset(
            (table.name.lower(), column.lower())
            for table in policy.tables
            for column in (*table.columns, "")
        )

    def _run_admitted(self, plan: QueryPlan, limit: float) -> Result[str, SqlExecutionFailure]:
        sql = plan.sql
        deadline = time.monotonic() + limit
        try:
            connection = self._connect()
        except sqlite3.Error:
            return failed(SqlFailureCode.UNAVAILABLE)
        try:
            connection.set_progress_handler(
                lambda: 1 if time.monotonic() > deadline else 0, _PROGRESS_STEPS
            )
            refused = self._check_cost(connection, sql, plan)
            if refused is not None:
                return failed(refused)
            rows = _run(connection, sql, plan)
        except sqlite3.Error as error:
            return failed(_code(error, timed_out=time.monotonic() > deadline))
        finally:
            connection.close()
        if rows is None:
            return failed(SqlFailureCode.QUERY_FAILED)
        return Success(encode_raw_result(plan, rows))

    def close(self) -> None:
        """Nothing is kept open between calls."""

    def _check_cost(
        self, connection: sqlite3.Connection, sql: str, plan: QueryPlan
    ) -> SqlFailureCode | None:
        """The cost gate: None when the plan may run."""
        sizes: dict[str, int] = {}
        connection.set_authorizer(None)
        try:
            for table in plan.tables:
                quoted = '"' + table.replace('"', '""') + '"'
                try:
                    largest = connection.execute(f"SELECT MAX(rowid) FROM {quoted}").fetchone()
                except sqlite3.Error:
                    continue  # a WITHOUT ROWID table or a view: counted as the largest one
                if largest is not None and isinstance(largest[0], int):
                    sizes[table.lower()] = largest[0]
        finally:
            connection.set_authorizer(self._authorize)
        for alias, table in _aliases(sql).items():
            if table in sizes:
                sizes.setdefault(alias, sizes[table])
        steps = [
            (int(row[0]), int(row[1]), str(row[3]))
            for row in connection.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
        ]
        estimate = explain_sqlite(steps, sizes)
        if estimate is None:
            return SqlFailureCode.COST_UNKNOWN
        return SqlFailureCode.COST_TOO_HIGH if estimate.exceeds(self._cost_limits) else None

    def _connect(self) -> sqlite3.Connection:
        uri = "file:" + urllib.parse.quote(str(self._path)) + "?mode=ro"
        connection = sqlite3.connect(
            uri, uri=True, timeout=1.0, isolation_level=None, check_same_thread=False
        )
        try:
            connection.execute("PRAGMA query_only = ON")
            connection.set_authorizer(self._authorize)
        except sqlite3.Error:
            connection.close()
            raise
        return connection

    def _authorize(
        self,
        action: int,
        first: str | None,
        second: str | None,
        schema: str | None,
        _trigger: str | None,
    ) -> int:
        if action == sqlite3.SQLITE_SELECT:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_READ:
            readable = (
                schema in _SCHEMAS
                and first is not None
                and second is not None
                and (first.lower(), second.lower()) in self._readable
            )
            return sqlite3.SQLITE_OK if readable else sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_FUNCTION:
            # Which functions may appear is the validator's business; extension loading is
            # off in Python's sqlite3 and the connection cannot write.
            return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_DENY


def _aliases(sql: str) -> dict[str, str]:
    """Each table alias of the plan's SQL (lower case) and the table it names."""
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except SqlglotError:
        return {}
    return {
        table.alias_or_name.lower(): table.name.lower()
        for table in tree.find_all(exp.Table)
        if table.alias
    }


def _run(
    connection: sqlite3.Connection, sql: str, plan: QueryPlan
) -> list[list[JsonScalar]] | None:
    cursor = connection.execute(sql)
    try:
        if cursor.description is None or len(cursor.description) != len(plan.output_columns):
            return None
        fetched = cursor.fetchmany(plan.row_limit + 1)
    finally:
        cursor.close()
    return [[to_json_scalar(value) for value in row] for row in fetched]


def _code(error: sqlite3.Error, *, timed_out: bool) -> SqlFailureCode:
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary == _SQLITE_INTERRUPT or timed_out:
        return SqlFailureCode.TIMEOUT
    if primary == _SQLITE_AUTH:
        return SqlFailureCode.ACCESS_DENIED
    if primary in (_SQLITE_CANTOPEN, _SQLITE_BUSY, _SQLITE_LOCKED):
        return SqlFailureCode.UNAVAILABLE
    return SqlFailureCode.QUERY_FAILED
