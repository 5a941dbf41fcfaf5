"""What the SQL tool needs from a database: run one approved plan, within a time limit."""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol

from attrs import frozen
from returns.result import Result

from factledger.domain.sql.plan import QueryPlan
from factledger.domain.tool_result import BackendFailure

__all__ = ["SqlBackend", "SqlExecutionFailure", "SqlExecutor", "SqlFailureCode"]


class SqlFailureCode(StrEnum):
    """How running a plan failed; stable, safe to show, never a server message."""

    TIMEOUT = "TIMEOUT"
    """The statement ran out of time (and was stopped on the server)."""
    ACCESS_DENIED = "ACCESS_DENIED"
    """The database refused the account: the allowlist names more than the grants allow."""
    QUERY_FAILED = "QUERY_FAILED"
    """The database rejected or could not finish the statement."""
    UNAVAILABLE = "UNAVAILABLE"
    """No connection to the database."""
    UNSUPPORTED = "UNSUPPORTED"
    """The plan cannot be expressed for this engine."""
    WRONG_DATASOURCE = "WRONG_DATASOURCE"
    """The plan was approved for another datasource."""
    COST_TOO_HIGH = "COST_TOO_HIGH"
    """The engine's EXPLAIN expects more work than the datasource allows; nothing was read."""
    COST_UNKNOWN = "COST_UNKNOWN"
    """The engine's EXPLAIN could not be read, so the plan was not run (fail closed)."""


@frozen
class SqlExecutionFailure:
    """A plan that did not run to completion."""

    code: SqlFailureCode
    """What went wrong, as a stable code."""


class SqlExecutor(Protocol):
    """Runs approved plans against one datasource, read-only."""

    @property
    def datasource(self) -> str:
        """The datasource this executor serves."""
        ...

    def execute(
        self, plan: QueryPlan, time_limit_seconds: float
    ) -> Result[str, SqlExecutionFailure]:
        """The raw result document (``factledger.domain.sql.raw_result``), or a failure."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


class SqlBackend(Protocol):
    """The SQL tool's backend as the registry sees it: validate, then run, within a limit."""

    @property
    def datasource_names(self) -> tuple[str, ...]:
        """The configured datasources."""
        ...

    def run(self, datasource: str, sql: str, timeout_seconds: float) -> Result[str, BackendFailure]:
        """Raw result JSON, or why not: INVALID_REQUEST with the refusal code for a query the
        sandbox refuses (nothing reaches the database), BACKEND_TIMEOUT, BACKEND_ERROR."""
        ...
