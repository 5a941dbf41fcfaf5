"""What every SQL executor checks before it touches its engine, in one place."""

from __future__ import annotations

from abc import ABC, abstractmethod

from returns.result import Failure, Result

from factledger.domain.sql.plan import QueryPlan
from factledger.domain.sql.policy import SqlDialect
from factledger.ports.sql import SqlExecutionFailure, SqlFailureCode

__all__ = ["AdmittingExecutor", "bounded_time_limit", "failed", "refusal"]

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


class AdmittingExecutor(ABC):
    """An executor's shared front: its datasource, the admission checks and the bounded time
    limit; an engine is given only the plans that pass them (``_run_admitted``)."""

    def __init__(self, datasource: str, dialect: SqlDialect, max_time_limit_seconds: float) -> None:
        self._datasource = datasource
        self._dialect: SqlDialect = dialect
        self._max_time_limit = max_time_limit_seconds

    @property
    def datasource(self) -> str:
        return self._datasource

    def execute(
        self, plan: QueryPlan, time_limit_seconds: float
    ) -> Result[str, SqlExecutionFailure]:
        """Run ``plan`` read-only, within the time limit; the raw result document."""
        not_here = refusal(plan, self._datasource, self._dialect)
        if not_here is not None:
            return not_here
        return self._run_admitted(
            plan, bounded_time_limit(time_limit_seconds, self._max_time_limit)
        )

    @abstractmethod
    def _run_admitted(self, plan: QueryPlan, limit: float) -> Result[str, SqlExecutionFailure]:
        """Run a plan for this datasource and dialect within ``limit`` seconds."""

    @abstractmethod
    def close(self) -> None:
        """Release connections."""
