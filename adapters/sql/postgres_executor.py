"""Running approved plans on PostgreSQL (psycopg 3), read-only.

Defence in depth around a plan the validator already approved
(see ``docs/sql-postgresql-account.md`` for the role):

* a dedicated role holding column-level SELECT on the allowlist, ``USAGE`` on one schema and
  ``CONNECT`` on one database, with ``default_transaction_read_only`` on;
* per call, one connection (``default_transaction_read_only=on`` and a statement timeout in
  its startup options) and one transaction: ``BEGIN TRANSACTION READ ONLY``, then
  ``SET LOCAL`` of ``statement_timeout``, ``lock_timeout``,
  ``idle_in_transaction_session_timeout``, ``search_path`` (the datasource's schema only),
  ``jit`` off and the time zone, ``ROLLBACK`` at the end. The query cannot change any of
  them: it is one SELECT, and ``set_config`` and ``SET`` are refused by the validator;
* every statement goes through the extended query protocol (``binary=True``), which takes one
  statement and nothing more: a stacked ``; COMMIT`` is a syntax error on the server, and the
  text is never formatted on the client, so ``%`` and ``:name`` inside literals stay text;
* the cost gate: ``EXPLAIN (FORMAT JSON)`` of the plan's SQL first, in the same transaction
  and time limit; a plan whose estimate is above the datasource's limits is refused
  (COST_TOO_HIGH) before a row is read;
* a watchdog that cancels the statement from the client if the server has not stopped it
  shortly after the limit; at most ``row_limit + 1`` rows are fetched.

Errors become stable codes; no server message reaches the caller.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence

import psycopg
from psycopg import errors as pg_errors
from returns.result import Result, Success
from sqlalchemy.engine import make_url

from factledger.adapters.sql.admission import AdmittingExecutor, failed
from factledger.adapters.sql.values import to_json_scalar
from factledger.adapters.sql.watchdog import Watchdog
from factledger.domain.json_types import JsonScalar
from factledger.domain.sql.cost import CostLimits, explain_postgres
from factledger.domain.sql.plan import QueryPlan
from factledger.domain.sql.raw_result import encode_raw_result
from factledger.ports.sql import SqlExecutionFailure, SqlFailureCode

__all__ = ["PostgresExecutor", "connection_parameters"]

_DENIED = (pg_errors.InsufficientPrivilege, pg_errors.InvalidAuthorizationSpecification)


def connection_parameters(url: str, max_time_limit_seconds: float) -> dict[str, object]:
    """psycopg keyword arguments for a ``postgresql+psycopg://`` URL."""
    parsed = make_url(url)
    ceiling = max(int(max_time_limit_seconds * 1000), 1)
    parameters: dict[str, object] = {
        "host": parsed.host or "127.0.0.1",
        "port": parsed.port or 5432,
        "dbname": parsed.database,
        "connect_timeout": 5,
        "application_name": "factledger",
        "options": f"-c default_transaction_read_only=on -c statement_timeout={ceiling}",
    }
    if parsed.username is not None:
        parameters["user"] = parsed.username
    if parsed.password is not None:
        parameters["password"] = parsed.password
    return parameters


class PostgresExecutor(AdmittingExecutor):
    """One PostgreSQL datasource."""

    def __init__(
        self,
        datasource: str,
        url: str,
        *,
        schema: str = "public",
        max_time_limit_seconds: float = 30.0,
        kill_grace_seconds: float = 0.25,
        cost_limits: CostLimits | None = None,
        time_zone: str = "+00:00",
    ) -> None:
        super().__init__(datasource, "postgres", max_time_limit_seconds)
        self._schema = schema
        self._kill_grace = kill_grace_seconds
        self._cost_limits = cost_limits or CostLimits()
        self._time_zone = time_zone
        self._parameters = connection_parameters(url, max_time_limit_seconds)

    def _run_admitted(self, plan: QueryPlan, limit: float) -> Result[str, SqlExecutionFailure]:
        try:
            connection = psycopg.connect(autocommit=True, **self._parameters)  # type: ignore[arg-type]  # keyword arguments built above
        except psycopg.Error:
            return failed(SqlFailureCode.UNAVAILABLE)
        watchdog = Watchdog(limit + self._kill_grace, lambda: _cancel_statement(connection))
        try:
            outcome = self._run(connection, plan, limit, watchdog)
        except psycopg.Error as error:
            return failed(_code(error, timed_out=watchdog.fired))
        finally:
            watchdog.cancel()
            connection.close()
        if isinstance(outcome, SqlFailureCode):
            return failed(outcome)
        return Success(encode_raw_result(plan, outcome))

    def close(self) -> None:
        """Nothing is kept open between calls."""

    def _run(
        self, connection: psycopg.Connection[tuple[object, ...]], plan: QueryPlan, limit: float,
        watchdog: Watchdog,
    ) -> list[list[JsonScalar]] | SqlFailureCode:  # fmt: skip
        with connection.cursor() as cursor:
            for statement in self._session(limit):
                cursor.execute(statement.encode(), binary=True)
            watchdog.start()
            cursor.execute(("EXPLAIN (FORMAT JSON) " + plan.sql).encode(), binary=True)
            explained = cursor.fetchone()
            refused = self._refusal(explained[0] if explained else None)
            if refused is not None:
                cursor.execute(b"ROLLBACK", binary=True)
                return refused
            cursor.execute(plan.sql.encode(), binary=True)
            description = cursor.description
            if description is None or len(description) != len(plan.output_columns):
                cursor.execute(b"ROLLBACK", binary=True)
                return SqlFailureCode.QUERY_FAILED
            fetched: Sequence[Sequence[object]] = cursor.fetchmany(plan.row_limit + 1)
            watchdog.cancel()
            cursor.execute(b"ROLLBACK", binary=True)
        return [[to_json_scalar(value) for value in row] for row in fetched]

    def _session(self, limit: float) -> tuple[str, ...]:
        """The transaction and the settings every plan runs under."""
        milliseconds = max(int(limit * 1000), 1)
        schema = '"' + self._schema.replace('"', '""') + '"'
        return (
            "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY",
            f"SET LOCAL statement_timeout = {milliseconds}",
            f"SET LOCAL lock_timeout = {milliseconds}",
            f"SET LOCAL idle_in_transaction_session_timeout = {milliseconds + 5000}",
            f"SET LOCAL search_path = {schema}",
            # Loading the JIT compiler costs the first plan of a session ~0.1 s of server time
            # (EXPLAIN included), and no plan under the cost gate needs it.
            "SET LOCAL jit = off",
            _time_zone_statement(self._time_zone),
        )

    def _refusal(self, explained: object) -> SqlFailureCode | None:
        if isinstance(explained, str | bytes):
            try:
                explained = json.loads(explained)
            except ValueError:
                return SqlFailureCode.COST_UNKNOWN
        estimate = explain_postgres(explained)
        if estimate is None:
            return SqlFailureCode.COST_UNKNOWN
        return SqlFailureCode.COST_TOO_HIGH if estimate.exceeds(self._cost_limits) else None


def _time_zone_statement(offset: str) -> str:
    """``SET LOCAL TIME ZONE`` for a ``+HH:MM`` offset (UTC by its name, so that the driver
    knows it; another offset as the standard interval)."""
    if offset in ("+00:00", "-00:00"):
        return "SET LOCAL TIME ZONE 'UTC'"
    return f"SET LOCAL TIME ZONE INTERVAL '{offset}' HOUR TO MINUTE"


def _cancel_statement(connection: psycopg.Connection[tuple[object, ...]]) -> None:
    with contextlib.suppress(psycopg.Error):  # best effort: the server limit is first
        connection.cancel_safe(timeout=2.0)


def _code(error: psycopg.Error, *, timed_out: bool) -> SqlFailureCode:
    if isinstance(error, pg_errors.QueryCanceled | pg_errors.LockNotAvailable) or timed_out:
        return SqlFailureCode.TIMEOUT
    if isinstance(error, _DENIED):
        return SqlFailureCode.ACCESS_DENIED
    if isinstance(error, psycopg.OperationalError):
        return SqlFailureCode.UNAVAILABLE
    return SqlFailureCode.QUERY_FAILED
