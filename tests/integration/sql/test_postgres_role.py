"""The PostgreSQL read-only role really is least-privilege: the database itself refuses,
whatever is sent (``docs/sql-postgresql-account.md``)."""

from __future__ import annotations

import time

import psycopg
import pytest
from psycopg import errors as pg_errors

from factledger.adapters.config.sql import SqlSettings
from factledger.adapters.sql.tool import SqlTool
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from tests.support.postgres_fixtures import PgTestDatabase

pytestmark = pytest.mark.integration


def _refused(database: PgTestDatabase, sql: str) -> type[psycopg.Error]:
    with database.as_role() as connection, pytest.raises(psycopg.Error) as caught:
        connection.execute(sql.encode())
    return type(caught.value)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE orders SET status = 'paid'",
        "DELETE FROM orders",
        "INSERT INTO ledger (id, bucket) VALUES (99999, 1)",
        "DROP TABLE orders",
        "CREATE TABLE scratch (a INT)",
        "TRUNCATE ledger",
    ],
)
def test_the_role_cannot_write(pg_test_database: PgTestDatabase, sql: str) -> None:
    refused = _refused(pg_test_database, sql)
    assert issubclass(refused, pg_errors.ReadOnlySqlTransaction | pg_errors.InsufficientPrivilege)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT ssn FROM users",
        "SELECT internal_note FROM orders",
        "SELECT * FROM users",
        "SELECT pg_read_file('/etc/passwd')",
        "SELECT rolpassword FROM pg_authid",
        "SELECT lo_import('/etc/passwd')",
    ],
)
def test_the_role_cannot_read_beyond_its_columns_or_the_server_files(
    pg_test_database: PgTestDatabase, sql: str
) -> None:
    refused = _refused(pg_test_database, sql)
    assert issubclass(refused, pg_errors.InsufficientPrivilege | pg_errors.ReadOnlySqlTransaction)


def test_the_role_holds_exactly_the_listed_column_grants(pg_test_database: PgTestDatabase) -> None:
    with pg_test_database.admin() as admin:
        columns = admin.execute(
            b"SELECT table_name, column_name, privilege_type "
            b"FROM information_schema.column_privileges WHERE grantee = %s",
            (pg_test_database.role,),
        ).fetchall()
        tables = admin.execute(
            b"SELECT table_name, privilege_type FROM information_schema.role_table_grants "
            b"WHERE grantee = %s",
            (pg_test_database.role,),
        ).fetchall()
        attributes = admin.execute(
            b"SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, "
            b"rolconfig FROM pg_roles WHERE rolname = %s",
            (pg_test_database.role,),
        ).fetchone()
    expected = {
        (table.name, column, "SELECT")
        for table in pg_test_database.policy.tables
        for column in table.columns
    }
    assert set(columns) == expected
    assert tables == []
    assert attributes is not None
    assert attributes[:5] == (False, False, False, False, False)
    settings = attributes[5]
    assert isinstance(settings, list)
    assert "default_transaction_read_only=on" in settings


def test_a_slow_query_is_stopped_on_the_server_and_leaves_nothing_running(
    pg_test_database: PgTestDatabase,
) -> None:
    settings = pg_test_database.settings.model_copy(update={"max_estimated_rows": 10**15})
    tool = SqlTool.from_settings(SqlSettings(datasources=[settings]))
    assert tool is not None
    slow = (
        "SELECT COUNT(*) AS n FROM ledger a JOIN ledger b ON a.bucket = b.bucket "
        "JOIN ledger c ON b.bucket = c.bucket"
    )
    try:
        failure = tool.run("payments_pg", slow, 0.5).failure()
    finally:
        tool.close()
    assert failure == BackendFailure(BackendFailureKind.BACKEND_TIMEOUT, "TIMEOUT")
    deadline = time.monotonic() + 10
    with pg_test_database.admin() as admin:
        while time.monotonic() < deadline:
            active = admin.execute(
                b"SELECT COUNT(*) FROM pg_stat_activity WHERE usename = %s AND state = 'active'",
                (pg_test_database.role,),
            ).fetchone()
            if active == (0,):
                break
            time.sleep(0.05)
    assert active == (0,)
