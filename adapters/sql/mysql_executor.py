"""Running approved plans on MySQL or MariaDB (SQLAlchemy + PyMySQL), read-only.

Defence in depth around a plan the validator already approved
(see ``docs/sql-readonly-account.md`` for the account):

* a dedicated account holding column-level SELECT on the allowlist and nothing else;
* per call: a fixed ``sql_mode`` (no ``NO_BACKSLASH_ESCAPES``, no ``ANSI_QUOTES``, no
  ``PIPES_AS_CONCAT``), a server-side statement time limit (``max_statement_time`` on
  MariaDB, ``max_execution_time`` on MySQL), ``START TRANSACTION READ ONLY`` … ``ROLLBACK``;
* a watchdog that sends ``KILL QUERY`` from a second connection if the server has not
  stopped the statement shortly after the limit (a client read timeout alone would leave the
  query running on the server);
* ``local_infile`` off, multi-statements off (PyMySQL's default, kept explicit);
* the plan's SQL is sent as it is, without SQLAlchemy ``text()`` (which would turn ``:name``
  inside a string literal into a bind parameter) and without client-side ``%`` formatting;
* at most ``row_limit + 1`` rows are fetched, from a server-side cursor.

Errors become stable codes; no server message reaches the caller.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from returns.result import Result, Success
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from factledger.adapters.sql.admission import AdmittingExecutor, failed
from factledger.adapters.sql.values import to_json_scalar
from factledger.adapters.sql.watchdog import Watchdog
from factledger.domain.json_types import JsonScalar
from factledger.domain.sql.cost import CostLimits, explain_mysql
from factledger.domain.sql.plan import QueryPlan
from factledger.domain.sql.raw_result import encode_raw_result
from factledger.ports.sql import SqlExecutionFailure, SqlFailureCode

__all__ = ["SQL_MODE", "MySqlExecutor"]

SQL_MODE = (
    "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
    "ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"
)
"""The session ``sql_mode`` every plan runs under, whatever the server's default."""

_TIMEOUT_ERRORS = frozenset({1317, 1969, 3024})
"""Query interrupted (KILL QUERY), max_statement_time exceeded (MariaDB), max_execution_time
exceeded (MySQL)."""
_DENIED_ERRORS = frozenset({1044, 1045, 1142, 1143, 1227, 1370})
_CONNECTION_ERRORS = frozenset({2003, 2005, 2006, 2013, 2055})


class MySqlExecutor(AdmittingExecutor):
    """One MySQL/MariaDB datasource."""

    def __init__(
        self,
        datasource: str,
        url: str,
        *,
        max_time_limit_seconds: float = 30.0,
        kill_grace_seconds: float = 0.25,
        pool_size: int = 4,
        cost_limits: CostLimits | None = None,
        time_zone: str = "+00:00",
    ) -> None:
        super().__init__(datasource, "mysql", max_time_limit_seconds)
        self._cost_limits = cost_limits or CostLimits()
        self._time_zone = time_zone
        self._kill_grace = kill_grace_seconds
        connect_args: dict[str, object] = {
            "connect_timeout": 5,
            "read_timeout": int(max_time_limit_seconds + 10),
            "write_timeout": 10,
            "local_infile": False,
            "client_flag": 0,
            "charset": "utf8mb4",
        }
        self._engine: Engine = create_engine(
            url,
            pool_size=pool_size,
            max_overflow=pool_size,
            pool_pre_ping=True,
            pool_recycle=3600,
            isolation_level="AUTOCOMMIT",
            connect_args=connect_args,
        )
        self._kill_engine: Engine = create_engine(
            url, poolclass=NullPool, isolation_level="AUTOCOMMIT", connect_args=connect_args
        )
        """A second, unpooled way in, so a KILL QUERY never waits for a busy pool."""

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for checks and tests; plans go through ``execute``)."""
        return self._engine

    def _run_admitted(self, plan: QueryPlan, limit: float) -> Result[str, SqlExecutionFailure]:
        try:
            connection = self._engine.connect()
        except SQLAlchemyError:
            return failed(SqlFailureCode.UNAVAILABLE)
        watchdog: Watchdog | None = None
        try:
            thread_id = self._prepare(connection, limit)
            watchdog = Watchdog(
                limit + self._kill_grace, lambda: kill_query(self._kill_engine, thread_id)
            )
            rows = self._run(connection, plan, watchdog)
        except _CostRefused as refused:
            connection.invalidate()
            return failed(refused.code)
        except DBAPIError as error:
            connection.invalidate()  # the server rolls back an abandoned transaction
            timed_out = watchdog is not None and watchdog.fired
            return failed(_code(error, timed_out=timed_out))
        except SQLAlchemyError:
            connection.invalidate()
            return failed(SqlFailureCode.QUERY_FAILED)
        finally:
            if watchdog is not None:
                watchdog.cancel()
            connection.close()
        if watchdog.fired:
            return failed(SqlFailureCode.TIMEOUT)
        if rows is None:
            return failed(SqlFailureCode.QUERY_FAILED)
        return Success(encode_raw_result(plan, rows))

    def close(self) -> None:
        """Close every pooled connection."""
        self._engine.dispose()
        self._kill_engine.dispose()

    def _prepare(self, connection: Connection, limit: float) -> int:
        """Fix the session for one plan; the connection's server thread id (for KILL)."""
        identity = connection.exec_driver_sql("SELECT CONNECTION_ID(), VERSION()").one()
        thread_id = int(identity[0])
        mariadb = "mariadb" in str(identity[1]).lower()
        connection.exec_driver_sql(
            f"SET SESSION sql_mode = '{SQL_MODE}', time_zone = '{self._time_zone}', "
            f"{self._time_limit_clause(limit, mariadb)}"
        )
        return thread_id

    def _time_limit_clause(self, limit: float, mariadb: bool) -> str:
        """The server-side statement time limit, in the dialect of the server."""
        if mariadb:
            return f"SESSION max_statement_time = {limit:.6f}"
        return f"SESSION max_execution_time = {max(int(limit * 1000), 1)}"

    def _run(
        self, connection: Connection, plan: QueryPlan, watchdog: Watchdog
    ) -> list[list[JsonScalar]] | None:
        connection.exec_driver_sql("START TRANSACTION READ ONLY")
        watchdog.start()
        try:
            self._check_cost(connection, plan)
            result = connection.execution_options(
                no_parameters=True, stream_results=True
            ).exec_driver_sql(plan.sql)
            try:
                matches_plan = len(result.keys()) == len(plan.output_columns)
                fetched: Sequence[Sequence[object]] = (
                    result.fetchmany(plan.row_limit + 1) if matches_plan else ()
                )
            finally:
                result.close()
        finally:
            watchdog.cancel()
        connection.exec_driver_sql("ROLLBACK")
        if not matches_plan:
            return None
        return [[to_json_scalar(value) for value in row] for row in fetched]

    def _check_cost(self, connection: Connection, plan: QueryPlan) -> None:
        """EXPLAIN the plan's SQL (nothing is read) and refuse it above the cost gate."""
        explained = (
            connection.execution_options(no_parameters=True)
            .exec_driver_sql("EXPLAIN FORMAT=JSON " + plan.sql)
            .all()
        )
        try:
            document: object = json_document(str(explained[0][0])) if explained else None
        except ValueError:
            document = None
        estimate = explain_mysql(document)
        if estimate is None:
            raise _CostRefused(SqlFailureCode.COST_UNKNOWN)
        if estimate.exceeds(self._cost_limits):
            raise _CostRefused(SqlFailureCode.COST_TOO_HIGH)


_STRAY_BACKSLASH = re.compile(r'\\(?!["\\/bfnrtu])')


def json_document(text: str) -> object:
    """MariaDB's EXPLAIN JSON, which writes ``\\'`` inside quoted conditions (not JSON)."""
    return json.loads(_STRAY_BACKSLASH.sub(r"\\\\", text))


class _CostRefused(Exception):
    """The cost gate refused the plan (the transaction is abandoned, nothing was read)."""

    def __init__(self, code: SqlFailureCode) -> None:
        super().__init__(code.value)
        self.code = code


def kill_query(engine: Engine, thread_id: int) -> bool:
    """Stop the statement a server thread is running (best effort); True when sent."""
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql(f"KILL QUERY {int(thread_id)}")
    except SQLAlchemyError:
        return False
    return True


def _code(error: DBAPIError, *, timed_out: bool) -> SqlFailureCode:
    errno = _errno(error)
    if errno in _TIMEOUT_ERRORS or (timed_out and errno in _CONNECTION_ERRORS):
        return SqlFailureCode.TIMEOUT
    if errno in _DENIED_ERRORS:
        return SqlFailureCode.ACCESS_DENIED
    if errno in _CONNECTION_ERRORS or error.connection_invalidated:
        return SqlFailureCode.UNAVAILABLE
    if timed_out:
        return SqlFailureCode.TIMEOUT
    return SqlFailureCode.QUERY_FAILED


def _errno(error: DBAPIError) -> int | None:
    arguments = getattr(error.orig, "args", ())
    if arguments and isinstance(arguments[0], int):
        return arguments[0]
    return None
