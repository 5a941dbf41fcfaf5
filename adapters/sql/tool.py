"""The ``query_sql`` backend: validate, then execute, per configured datasource.

``SqlTool.run`` is what a tool invoker binds as its executor: it reads the clock once (the
call's start instant, to the second, which ``NOW()`` and its kin are bound to), and returns
the raw result document, or a ``BackendFailure`` — INVALID_REQUEST with the refusal code as
``reason`` when the validator refused (nothing reaches the database then) or the engine's
EXPLAIN put the plan above the cost gate (COST_TOO_HIGH: nothing was read),
BACKEND_TIMEOUT or BACKEND_ERROR with a stable code otherwise. The matching projector is
``factledger.domain.sql.projector.project_sql_result``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from types import MappingProxyType

from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.adapters.config.sql import SqlDatasourceSettings, SqlSettings
from factledger.adapters.sql.mysql_executor import MySqlExecutor
from factledger.adapters.sql.policy import policy_from_settings
from factledger.adapters.sql.postgres_executor import PostgresExecutor
from factledger.adapters.sql.sqlite_executor import SqliteExecutor
from factledger.adapters.system import SystemClock
from factledger.domain.sql.cost import CostLimits
from factledger.domain.sql.plan import QueryPlan
from factledger.domain.sql.policy import SqlLimits, SqlPolicy
from factledger.domain.sql.validator import validate_sql
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from factledger.ports.clock import Clock
from factledger.ports.sql import SqlExecutionFailure, SqlExecutor, SqlFailureCode

__all__ = ["SqlDatasource", "SqlTool", "build_executor", "to_backend_failure"]

UNKNOWN_DATASOURCE = "UNKNOWN_DATASOURCE"
"""The reason code for a datasource name that is not configured."""


@frozen
class SqlDatasource:
    """One configured datasource: its policy and the executor that runs its plans."""

    policy: SqlPolicy
    executor: SqlExecutor


class SqlTool:
    """Every configured datasource, by name."""

    def __init__(self, datasources: Mapping[str, SqlDatasource], clock: Clock | None = None):
        self._datasources = MappingProxyType(dict(datasources))
        self._clock: Clock = clock or SystemClock()

    @classmethod
    def from_settings(
        cls, settings: SqlSettings, limits: SqlLimits | None = None, clock: Clock | None = None
    ) -> SqlTool | None:
        """The tool for the ``[sql]`` section; None when no datasource is configured (the
        tool is then not registered at all). Connections open lazily, on first use."""
        if not settings.datasources:
            return None
        datasources: dict[str, SqlDatasource] = {}
        for settings_item in settings.datasources:
            policy = policy_from_settings(settings_item, limits)
            datasources[policy.datasource] = SqlDatasource(
                policy, build_executor(settings_item, policy)
            )
        return cls(datasources, clock)

    @property
    def datasource_names(self) -> tuple[str, ...]:
        """The configured datasource names, in configuration order."""
        return tuple(self._datasources)

    def policy(self, datasource: str) -> SqlPolicy | None:
        """The allowlist of ``datasource``, if configured."""
        found = self._datasources.get(datasource)
        return None if found is None else found.policy

    def plan(
        self, datasource: str, sql: str, now: datetime | None = None
    ) -> Result[QueryPlan, BackendFailure]:
        """The approved plan (``NOW()`` bound to ``now``, the clock's time when not given), or
        INVALID_REQUEST with the refusal's reason code."""
        found = self._datasources.get(datasource)
        if found is None:
            return Failure(BackendFailure(BackendFailureKind.INVALID_REQUEST, UNKNOWN_DATASOURCE))
        instant = now if now is not None else self._clock.now().replace(microsecond=0)
        validated = validate_sql(found.policy, sql, instant)
        if isinstance(validated, Failure):
            code = validated.failure().code
            return Failure(BackendFailure(BackendFailureKind.INVALID_REQUEST, code.value))
        return Success(validated.unwrap())

    def run(self, datasource: str, sql: str, timeout_seconds: float) -> Result[str, BackendFailure]:
        """Validate ``sql`` for ``datasource`` and run it: the raw result document."""
        plan_result = self.plan(datasource, sql)
        if isinstance(plan_result, Failure):
            failure = plan_result.failure()
            return Failure(failure)
        plan = plan_result.unwrap()
        executor = self._datasources[datasource].executor
        executed = executor.execute(plan, timeout_seconds)
        if isinstance(executed, Failure):
            return Failure(to_backend_failure(executed.failure()))
        return Success(executed.unwrap())

    def executor_for(
        self, datasource: str, sql: str
    ) -> Callable[[float], Result[str, BackendFailure]]:
        """A ToolExecutor for one call: ``timeout_seconds -> raw JSON or failure``."""

        def execute(timeout_seconds: float) -> Result[str, BackendFailure]:
            return self.run(datasource, sql, timeout_seconds)

        return execute

    def close(self) -> None:
        """Release every datasource's connections."""
        for datasource in self._datasources.values():
            datasource.executor.close()


def build_executor(settings: SqlDatasourceSettings, policy: SqlPolicy) -> SqlExecutor:
    """The executor for one datasource's URL."""
    cost = CostLimits(settings.max_estimated_rows, settings.max_estimated_cost)
    if settings.dialect == "mysql":
        return MySqlExecutor(
            settings.name, settings.url, cost_limits=cost, time_zone=settings.time_zone
        )
    if settings.dialect == "postgres":
        return PostgresExecutor(
            settings.name,
            settings.url,
            schema=settings.postgres_schema,
            cost_limits=cost,
            time_zone=settings.time_zone,
        )
    return SqliteExecutor(policy, settings.url, cost_limits=cost)


def to_backend_failure(failure: SqlExecutionFailure) -> BackendFailure:
    """The boundary's view of an execution failure: a stable kind and a safe reason code.

    COST_TOO_HIGH is a refusal of the query, like the validator's: INVALID_REQUEST."""
    if failure.code is SqlFailureCode.COST_TOO_HIGH:
        return BackendFailure(BackendFailureKind.INVALID_REQUEST, failure.code.value)
    if failure.code is SqlFailureCode.TIMEOUT:
        return BackendFailure(BackendFailureKind.BACKEND_TIMEOUT, failure.code.value)
    return BackendFailure(BackendFailureKind.BACKEND_ERROR, failure.code.value)
