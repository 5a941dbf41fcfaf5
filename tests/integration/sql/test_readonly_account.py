"""The read-only account really is read-only: the database itself refuses, whatever is sent."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import DBAPIError

from tests.support.mariadb_fixtures import SqlTestDatabase

pytestmark = pytest.mark.integration


def _error_code(database: SqlTestDatabase, sql: str) -> int:
    """The MariaDB error number the read-only account gets for ``sql``."""
    engine = database.account_engine()
    try:
        with engine.connect() as connection, pytest.raises(DBAPIError) as caught:
            connection.exec_driver_sql(sql)
    finally:
        engine.dispose()
    code = caught.value.orig.args[0] if caught.value.orig is not None else None
    assert isinstance(code, int)
    return code


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE orders SET status = 'paid'",
        "INSERT INTO orders (id, status, amount, created_at, user_id) "
        "VALUES (99, 'x', 1, NOW(), 1)",
        "DELETE FROM orders",
        "DROP TABLE orders",
        "CREATE TABLE scratch (a INT)",
        "TRUNCATE TABLE ledger",
    ],
)
def test_the_account_cannot_write(sql_test_database: SqlTestDatabase, sql: str) -> None:
    assert _error_code(sql_test_database, sql) in (1142, 1044)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT internal_note FROM orders",
        "SELECT ssn FROM users",
        "SELECT * FROM users",
        "SELECT id FROM orders WHERE internal_note = 'vip'",
    ],
)
def test_the_account_cannot_read_an_unlisted_column(
    sql_test_database: SqlTestDatabase, sql: str
) -> None:
    assert _error_code(sql_test_database, sql) in (1142, 1143)


def test_the_account_cannot_see_mysql_user(sql_test_database: SqlTestDatabase) -> None:
    assert _error_code(sql_test_database, "SELECT user FROM mysql.user") == 1142


def test_the_account_cannot_write_files(sql_test_database: SqlTestDatabase) -> None:
    code = _error_code(sql_test_database, "SELECT id FROM orders INTO OUTFILE '/tmp/fl-out.txt'")
    assert code in (1045, 1227)


def test_the_account_sees_no_other_sessions(sql_test_database: SqlTestDatabase) -> None:
    engine = sql_test_database.account_engine()
    try:
        with engine.connect() as connection:
            others = connection.exec_driver_sql(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER <> %s",
                (sql_test_database.account_user,),
            ).scalar_one()
    finally:
        engine.dispose()
    assert others == 0


def test_the_account_holds_exactly_the_documented_grants(
    sql_test_database: SqlTestDatabase,
) -> None:
    root = sql_test_database.root_engine()
    try:
        with root.connect() as connection:
            shown = connection.exec_driver_sql(f"SHOW GRANTS FOR {sql_test_database.account}")
            grants = [str(row[0]) for row in shown]
    finally:
        root.dispose()
    usage, *selects = grants
    assert usage.startswith("GRANT USAGE ON *.* TO ")
    assert len(selects) == len(sql_test_database.policy.tables)
    for grant in selects:
        assert grant.startswith("GRANT SELECT (")
        assert f" ON `{sql_test_database.database}`." in grant
    listed = {
        (table.name, column)
        for table in sql_test_database.policy.tables
        for column in table.columns
    }
    granted = set()
    for grant in selects:
        columns = grant[len("GRANT SELECT (") : grant.index(")")]
        table = grant.split(" ON ")[1].split(" TO ")[0].split(".")[1].strip("`")
        granted |= {(table, column.strip().strip("`")) for column in columns.split(",")}
    assert granted == listed
