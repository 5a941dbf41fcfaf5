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
from tests.unit.sql.corpus import CORPUS_NOW

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
    # MySQL date functions SQLite computes in its own terms (domain/sql/sqlite_forms.py)
    "SELECT id, HOUR(created_at) AS h, MINUTE(created_at) AS m, SECOND(created_at) AS s, "
    "YEAR(created_at) AS y, MONTH(created_at) AS mo, DAY(created_at) AS d, "
    "DAYOFYEAR(created_at) AS doy, DAYOFWEEK(created_at) AS dow FROM orders ORDER BY id",
    "SELECT id, EXTRACT(MINUTE FROM created_at) AS m, UNIX_TIMESTAMP(created_at) AS epoch "
    "FROM orders ORDER BY id",
    "SELECT o.id, TIMESTAMPDIFF(SECOND, o.created_at, p.created_at) AS delay_s, "
    "TIMESTAMPDIFF(MINUTE, p.created_at, o.created_at) AS back_m FROM orders o "
    "JOIN payments_log p ON p.order_id = o.id ORDER BY o.id",
    "SELECT id, DATE_ADD(created_at, INTERVAL 90 MINUTE) AS later, "
    "DATE_SUB(created_at, INTERVAL 1 WEEK) AS before_, created_at + INTERVAL 30 SECOND AS s "
    "FROM orders ORDER BY id",
    "SELECT COUNT(*) AS n FROM orders WHERE created_at >= NOW() - INTERVAL 1 HOUR",
    "SELECT o.id, FLOOR(o.amount) AS lo, CEIL(o.amount) AS hi, FLOOR(p.latency_ms / 1000) AS s "
    "FROM orders o JOIN payments_log p ON p.order_id = o.id ORDER BY o.id",
    "SELECT HOUR(created_at) AS h, COUNT(*) AS n FROM payments_log GROUP BY h ORDER BY h",
]


@pytest.mark.parametrize("sql", PORTABLE)
def test_the_same_plan_returns_the_same_rows_on_sqlite_and_mariadb(
    sql: str, sql_test_database: SqlTestDatabase, sqlite_settings: SqlDatasourceSettings
) -> None:
    sqlite_policy = policy_from_settings(sqlite_settings)
    mariadb_policy = sql_test_database.policy
    on_sqlite = validate_sql(sqlite_policy, sql, CORPUS_NOW).unwrap()
    on_mariadb = validate_sql(mariadb_policy, sql, CORPUS_NOW).unwrap()
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
