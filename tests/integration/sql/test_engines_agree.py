"""The same plan on SQLite and MariaDB returns the same rows for the test data."""

from __future__ import annotations

import pytest

from factledger.adapters.config.sql import SqlDatasourceSettings
from factledger.adapters.sql.mysql_executor import MySqlExecutor
from factledger.adapters.sql.policy import policy_from_settings
from factledger.adapters.sql.sqlite_executor import SqliteExecutor
from factledger.domain.sql.projector import project_sql_result
from factledger.domain.sql.validator import validate_sql
from tests.support.mariadb_fixtures import SqlTestDatabase

pytestmark = pytest.mark.integration

PORTABLE = [
    "SELECT id, status, amount, created_at FROM orders WHERE status = 'failed' ORDER BY id",
    "SELECT status, COUNT(*) AS n, SUM(amount) AS total FROM orders "
    "GROUP BY status ORDER BY status",
    "SELECT o.id, u.name, u.api_token FROM orders o JOIN users u ON u.id = o.user_id ORDER BY o.id",
    "SELECT u.name, COUNT(o.id) AS n FROM users u LEFT JOIN orders o ON o.user_id = u.id "
    "AND o.status = 'failed' GROUP BY u.name ORDER BY u.name",
    "SELECT id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY created_at) AS attempt "
    "FROM orders ORDER BY id",
    "SELECT DATE_FORMAT(created_at, '%Y-%m-%d %H') AS hour, COUNT(*) AS n FROM orders "
    "GROUP BY hour ORDER BY hour",
    "WITH slow AS (SELECT order_id FROM payments_log WHERE latency_ms > 1000) "
    "SELECT o.status, COUNT(*) AS n FROM slow s JOIN orders o ON o.id = s.order_id "
    "GROUP BY o.status ORDER BY o.status",
    "SELECT id FROM orders WHERE amount > (SELECT AVG(amount) FROM orders) ORDER BY id",
    "SELECT o.id FROM orders o WHERE NOT EXISTS "
    "(SELECT 1 FROM payments_log p WHERE p.order_id = o.id AND p.outcome = 'ok') ORDER BY o.id",
    "SELECT service, MAX(latency_ms) AS worst FROM payments_log GROUP BY service "
    "HAVING MAX(latency_ms) > 1000 ORDER BY service",
    "SELECT id, IF(amount > 50, 'large', 'small') AS size, COALESCE(NULLIF(status, 'paid'), "
    "'ok') AS s FROM orders ORDER BY id LIMIT 4 OFFSET 1",
    "SELECT bucket, COUNT(*) AS n FROM ledger GROUP BY bucket ORDER BY bucket",
    "SELECT id FROM orders WHERE created_at >= '2024-05-01 10:00:00' AND created_at < "
    "'2024-05-01 10:30:00' ORDER BY created_at DESC",
]


@pytest.mark.parametrize("sql", PORTABLE)
def test_the_same_plan_returns_the_same_rows_on_sqlite_and_mariadb(
    sql: str, sql_test_database: SqlTestDatabase, sqlite_settings: SqlDatasourceSettings
) -> None:
    sqlite_policy = policy_from_settings(sqlite_settings)
    mariadb_policy = sql_test_database.policy
    on_sqlite = validate_sql(sqlite_policy, sql).unwrap()
    on_mariadb = validate_sql(mariadb_policy, sql).unwrap()
    same = ("tables", "columns", "output_columns", "row_limit")
    assert [getattr(on_sqlite, name) for name in same] == [getattr(on_mariadb, n) for n in same]

    sqlite = SqliteExecutor(sqlite_policy, sqlite_settings.url)
    mariadb = MySqlExecutor(mariadb_policy.datasource, sql_test_database.settings.url)
    try:
        from_sqlite = project_sql_result(sqlite.execute(on_sqlite, 5.0).unwrap()).unwrap()
        from_mariadb = project_sql_result(mariadb.execute(on_mariadb, 5.0).unwrap()).unwrap()
    finally:
        mariadb.close()
    assert from_sqlite.agent_result["rows"]
    assert from_sqlite.agent_result["rows"] == from_mariadb.agent_result["rows"]
    assert from_sqlite.evidence_status is from_mariadb.evidence_status
