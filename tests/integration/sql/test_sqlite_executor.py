"""Plans on a SQLite file: read-only, column allowlist enforced by an authorizer, time limit
enforced by a progress handler."""

from __future__ import annotations

import sqlite3

import pytest
from attrs import evolve

from factledger.adapters.config.sql import SqlDatasourceSettings, SqlSettings
from factledger.adapters.sql.policy import policy_from_settings
from factledger.adapters.sql.sqlite_executor import SqliteExecutor, sqlite_path
from factledger.adapters.sql.tool import SqlTool
from factledger.domain.sql.grammar import FUNCTION_RULES
from factledger.domain.sql.policy import TablePolicy
from factledger.domain.sql.projector import project_sql_result
from factledger.domain.sql.redaction import REDACTED
from factledger.domain.sql.validator import validate_sql
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from factledger.ports.sql import SqlFailureCode

pytestmark = pytest.mark.integration

SLOW = (
    "SELECT COUNT(*) AS n FROM ledger a JOIN ledger b ON a.bucket = b.bucket "
    "JOIN ledger c ON b.bucket = c.bucket"
)
"""Joins that relate rows, on a column with ten values: 270 million rows, seconds of work."""

# One query per function the SQLite dialect allows: each must run on SQLite itself.
SQLITE_FUNCTION_QUERIES = {
    "Count": "SELECT COUNT(id) AS v FROM orders",
    "Sum": "SELECT SUM(amount) AS v FROM orders",
    "Avg": "SELECT AVG(amount) AS v FROM orders",
    "Min": "SELECT MIN(amount) AS v FROM orders",
    "Max": "SELECT MAX(amount) AS v FROM orders",
    "GroupConcat": "SELECT GROUP_CONCAT(status) AS v FROM orders",
    "Coalesce": "SELECT COALESCE(NULL, status) AS v FROM orders",
    "If": "SELECT IF(amount > 10, 1, 0) AS v FROM orders",
    "Nullif": "SELECT NULLIF(status, 'paid') AS v FROM orders",
    "Greatest": "SELECT GREATEST(amount, 10) AS v FROM orders",
    "Least": "SELECT LEAST(amount, 10) AS v FROM orders",
    "Concat": "SELECT CONCAT(status, '-', id) AS v FROM orders",
    "Length": "SELECT LENGTH(status) AS v FROM orders",
    "Upper": "SELECT UPPER(status) AS v FROM orders",
    "Lower": "SELECT LOWER(status) AS v FROM orders",
    "Substring": "SELECT SUBSTRING(status, 1, 2) AS v FROM orders",
    "Trim": "SELECT TRIM(status) AS v FROM orders",
    "Replace": "SELECT REPLACE(status, 'a', 'b') AS v FROM orders",
    "StrPosition": "SELECT LOCATE('a', status) AS v FROM orders",
    "Round": "SELECT ROUND(amount, 1) AS v FROM orders",
    "Abs": "SELECT ABS(amount) AS v FROM orders",
    "Sign": "SELECT SIGN(amount) AS v FROM orders",
    "TsOrDsToDate": "SELECT DATE(created_at) AS v FROM orders",
    "TsOrDsToTimestamp": "SELECT DATE_FORMAT(created_at, '%Y') AS v FROM orders",
    "TimeToStr": "SELECT DATE_FORMAT(created_at, '%Y-%m-%d %H') AS v FROM orders",
    "DateDiff": "SELECT DATEDIFF('2024-05-03', created_at) AS v FROM orders",
    "RowNumber": "SELECT ROW_NUMBER() OVER (ORDER BY id) AS v FROM orders",
    "Rank": "SELECT RANK() OVER (ORDER BY amount) AS v FROM orders",
    "DenseRank": "SELECT DENSE_RANK() OVER (ORDER BY amount) AS v FROM orders",
    "PercentRank": "SELECT PERCENT_RANK() OVER (ORDER BY amount) AS v FROM orders",
    "CumeDist": "SELECT CUME_DIST() OVER (ORDER BY amount) AS v FROM orders",
    "Ntile": "SELECT NTILE(2) OVER (ORDER BY amount) AS v FROM orders",
    "Hour": "SELECT HOUR(created_at) AS v FROM orders",
    "Minute": "SELECT MINUTE(created_at) AS v FROM orders",
    "Second": "SELECT SECOND(created_at) AS v FROM orders",
    "Year": "SELECT YEAR(created_at) AS v FROM orders",
    "Month": "SELECT MONTH(created_at) AS v FROM orders",
    "Day": "SELECT DAY(created_at) AS v FROM orders",
    "DayOfMonth": "SELECT DAYOFMONTH(created_at) AS v FROM orders",
    "DayOfYear": "SELECT DAYOFYEAR(created_at) AS v FROM orders",
    "DayOfWeek": "SELECT DAYOFWEEK(created_at) AS v FROM orders",
    "Extract": "SELECT EXTRACT(HOUR FROM created_at) AS v FROM orders",
    "DateAdd": "SELECT DATE_ADD(created_at, INTERVAL 90 MINUTE) AS v FROM orders",
    "DateSub": "SELECT DATE_SUB(created_at, INTERVAL 2 DAY) AS v FROM orders",
    "TimestampDiff": "SELECT TIMESTAMPDIFF(MINUTE, created_at, '2024-05-01 12:00:00') AS v "
    "FROM orders",
    "Floor": "SELECT FLOOR(amount) AS v FROM orders",
    "Ceil": "SELECT CEIL(amount) AS v FROM orders",
    "Lag": "SELECT LAG(amount) OVER (ORDER BY id) AS v FROM orders",
    "Lead": "SELECT LEAD(amount, 1) OVER (ORDER BY id) AS v FROM orders",
    "FirstValue": "SELECT FIRST_VALUE(amount) OVER (ORDER BY id) AS v FROM orders",
    "LastValue": "SELECT LAST_VALUE(amount) OVER (ORDER BY id) AS v FROM orders",
    "NthValue": "SELECT NTH_VALUE(amount, 2) OVER (ORDER BY id) AS v FROM orders",
}


def test_every_function_allowed_on_sqlite_runs_on_sqlite(sqlite_tool: SqlTool) -> None:
    allowed = {kind.__name__ for kind, dialects in FUNCTION_RULES.items() if "sqlite" in dialects}
    assert allowed == set(SQLITE_FUNCTION_QUERIES)
    for name, sql in SQLITE_FUNCTION_QUERIES.items():
        raw = sqlite_tool.run("payments_sqlite", sql, 5.0)
        assert project_sql_result(raw.unwrap()).unwrap().agent_result["rows"], name


def test_a_result_is_projected_with_sensitive_columns_redacted(sqlite_tool: SqlTool) -> None:
    raw = sqlite_tool.run("payments_sqlite", "SELECT id, name, api_token FROM users", 5.0)
    rows = project_sql_result(raw.unwrap()).unwrap().agent_result["rows"]
    assert rows == [[1, "alice", REDACTED], [2, "bob", REDACTED], [3, "carol", REDACTED]]


def test_a_slow_query_is_stopped_at_its_time_limit(
    sqlite_settings: SqlDatasourceSettings,
) -> None:
    unlimited = sqlite_settings.model_copy(update={"max_estimated_rows": 10**15})
    tool = SqlTool.from_settings(SqlSettings(datasources=[unlimited]))
    assert tool is not None
    failure = tool.run("payments_sqlite", SLOW, 0.3).failure()
    assert failure == BackendFailure(BackendFailureKind.BACKEND_TIMEOUT, "TIMEOUT")


def test_a_plan_above_the_cost_gate_is_refused_before_it_runs(sqlite_tool: SqlTool) -> None:
    nested = (
        "SELECT a.id, (SELECT COUNT(*) FROM ledger b WHERE b.bucket = a.bucket) AS n FROM ledger a"
    )
    failure = sqlite_tool.run("payments_sqlite", nested, 5.0).failure()
    assert failure == BackendFailure(BackendFailureKind.INVALID_REQUEST, "COST_TOO_HIGH")


def test_the_authorizer_refuses_a_column_the_executors_allowlist_lacks(
    sqlite_settings: SqlDatasourceSettings,
) -> None:
    policy = policy_from_settings(sqlite_settings)
    narrow = evolve(
        policy,
        tables=tuple(
            TablePolicy("orders", ("id",)) if table.name == "orders" else table
            for table in policy.tables
        ),
    )
    plan = validate_sql(policy, "SELECT id, status FROM orders").unwrap()
    executor = SqliteExecutor(narrow, sqlite_settings.url)
    assert executor.execute(plan, 5.0).failure().code is SqlFailureCode.ACCESS_DENIED


def test_a_forged_plan_that_writes_changes_nothing(sqlite_settings: SqlDatasourceSettings) -> None:
    policy = policy_from_settings(sqlite_settings)
    plan = validate_sql(policy, "SELECT id FROM orders").unwrap()
    executor = SqliteExecutor(policy, sqlite_settings.url)
    for sql in ("UPDATE orders SET status = 'paid'", "DELETE FROM orders", "DROP TABLE orders"):
        outcome = executor.execute(evolve(plan, sql=sql), 5.0)
        assert outcome.failure().code in (SqlFailureCode.ACCESS_DENIED, SqlFailureCode.QUERY_FAILED)
    connection = sqlite3.connect(sqlite_path(sqlite_settings.url))
    try:
        assert connection.execute(
            "SELECT COUNT(*) FROM orders WHERE status = 'paid'"
        ).fetchone() == (2,)
    finally:
        connection.close()


def test_a_missing_file_is_unavailable_and_never_created(
    sqlite_settings: SqlDatasourceSettings, tmp_path_factory: pytest.TempPathFactory
) -> None:
    missing = tmp_path_factory.mktemp("absent") / "none.db"
    policy = policy_from_settings(sqlite_settings)
    plan = validate_sql(policy, "SELECT id FROM orders").unwrap()
    executor = SqliteExecutor(policy, f"sqlite:///{missing}")
    assert executor.execute(plan, 5.0).failure().code is SqlFailureCode.UNAVAILABLE
    assert not missing.exists()
