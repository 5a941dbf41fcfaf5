"""What every SQL executor checks before it touches its engine, in one place."""

from __future__ import annotations

from returns.result import Failure, Result

from factledger.domain.sql.plan import QueryPlan
from factledger.domain.sql.policy import SqlDialect
from factledger.ports.sql import SqlExecutionFailure, SqlFailureCode

__all__ = ["bounded_time_limit", "failed", "refusal"]

MIN_TIME_LIMIT_SECONDS = 0.001
"""The smallest time limit an engine is given (a zero or negative limit means no limit to
some engines)."""


def failed(code: SqlFailureCode) -> Result[str, SqlExecutionFailure]:
    """An execution failure with its code."""
    return Failure(SqlExecutionFailure(code))


def refusal(
    plan: QueryPlan, datasource: str, dialect: SqlDialect
) -> Result[str, SqlExecutionFailure] | None:
    """Why this executor must not run the plan (another datasource or dialect), or None."""
    if plan.datasource != datasource:
        return failed(SqlFailureCode.WRONG_DATASOURCE)
    if plan.dialect != dialect:
        return failed(SqlFailureCode.UNSUPPORTED)
    return None


def bounded_time_limit(requested_seconds: float, max_seconds: float) -> float:
    """The time limit a query runs with: the call's, within the datasource's maximum."""
    return min(max(requested_seconds, MIN_TIME_LIMIT_SECONDS), max_seconds)
