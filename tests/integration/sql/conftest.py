"""SQL tools on the test data: MariaDB (fixtures in tests/support/mariadb_fixtures.py) and a
SQLite file holding the same schema and rows."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from factledger.adapters.config.sql import SqlDatasourceSettings, SqlSettings
from factledger.adapters.sql.tool import SqlTool
from tests.support.mariadb_fixtures import (
    SqlTestDatabase,
    allowlist_settings,
    dataset_statements,
    ledger_rows,
)
from tests.support.postgres_fixtures import PgTestDatabase


@pytest.fixture(scope="session")
def sqlite_settings(tmp_path_factory: pytest.TempPathFactory) -> SqlDatasourceSettings:
    """The test allowlist on a SQLite file with the test data."""
    path = tmp_path_factory.mktemp("sql") / "payments.db"
    connection = sqlite3.connect(path)
    try:
        for statement in dataset_statements():
            connection.execute(statement)
        connection.executemany("INSERT INTO ledger (id, bucket) VALUES (?, ?)", ledger_rows())
        connection.commit()
    finally:
        connection.close()
    return allowlist_settings().model_copy(
        update={"name": "payments_sqlite", "url": f"sqlite:///{Path(path).resolve()}"}
    )


@pytest.fixture
def mariadb_tool(sql_test_database: SqlTestDatabase) -> Iterator[SqlTool]:
    """The SQL tool on the MariaDB test database, through the read-only account."""
    tool = SqlTool.from_settings(SqlSettings(datasources=[sql_test_database.settings]))
    assert tool is not None
    try:
        yield tool
    finally:
        tool.close()


@pytest.fixture
def sqlite_tool(sqlite_settings: SqlDatasourceSettings) -> Iterator[SqlTool]:
    """The SQL tool on the SQLite test file."""
    tool = SqlTool.from_settings(SqlSettings(datasources=[sqlite_settings]))
    assert tool is not None
    try:
        yield tool
    finally:
        tool.close()


@pytest.fixture
def postgres_tool(pg_test_database: PgTestDatabase) -> Iterator[SqlTool]:
    """The SQL tool on the PostgreSQL test database, through the read-only role."""
    tool = SqlTool.from_settings(SqlSettings(datasources=[pg_test_database.settings]))
    assert tool is not None
    try:
        yield tool
    finally:
        tool.close()
