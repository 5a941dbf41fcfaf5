"""MariaDB fixtures for the integration tests (a throwaway server or the running one).

``sql_test_database`` creates a database no other test uses, the test schema and data
(``tests/data/sql/dataset.sql``) and a read-only account holding exactly the GRANTs
``factledger.adapters.sql.grants`` writes for the test allowlist
(``tests/data/sql/policy.toml``); it drops the account and the database afterwards.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from attrs import frozen
from sqlalchemy.engine import Engine

from factledger.adapters.config.sql import SqlDatasourceSettings, load_sql_settings
from factledger.adapters.sql.grants import grant_statements
from factledger.adapters.sql.policy import policy_from_settings
from factledger.domain.sql.policy import SqlPolicy
from tests.support.mariadb_server import (
    INSTALL_HINT,
    MariaDbAddress,
    MariaDbProcess,
    mariadb_binaries,
    running_mariadb,
)

SQL_DATA = Path(__file__).resolve().parent.parent / "data" / "sql"
LEDGER_ROWS = 3000


@frozen
class SqlTestDatabase:
    """The test database on MariaDB, its read-only account and its allowlist."""

    address: MariaDbAddress
    database: str
    account_user: str
    account_password: str
    settings: SqlDatasourceSettings
    """The ``[[sql.datasources]]`` entry, its URL naming the read-only account."""

    @property
    def account(self) -> str:
        """The account as GRANT and DROP USER name it."""
        return f"'{self.account_user}'@'127.0.0.1'"

    @property
    def policy(self) -> SqlPolicy:
        return policy_from_settings(self.settings)

    def root_engine(self) -> Engine:
        """Root, on the test database."""
        return self.address.engine(database=self.database)

    def account_engine(self) -> Engine:
        """The read-only account, on the test database, with no factledger code in between."""
        return self.address.engine(self.account_user, self.account_password, self.database)


def allowlist_settings() -> SqlDatasourceSettings:
    """The test allowlist, as ``tests/data/sql/policy.toml`` configures it."""
    loaded = load_sql_settings(SQL_DATA / "policy.toml").unwrap()
    return loaded.datasources[0]


def dataset_statements() -> list[str]:
    """The statements of ``tests/data/sql/dataset.sql``, portable to MariaDB and SQLite."""
    lines = [
        line
        for line in (SQL_DATA / "dataset.sql").read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith("--")
    ]
    return [statement.strip() for statement in "\n".join(lines).split(";") if statement.strip()]


def ledger_rows() -> list[tuple[int, int]]:
    """The rows of the big table the slow-query tests join with itself."""
    return [(row, row % 10) for row in range(1, LEDGER_ROWS + 1)]


@pytest.fixture(scope="session")
def mariadb() -> Iterator[MariaDbAddress]:
    """A MariaDB for the session: the running one, else a throwaway server."""
    running = running_mariadb()
    if running is not None:
        yield running
        return
    binaries = mariadb_binaries()
    if binaries is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    server = MariaDbProcess(*binaries)
    try:
        server.start()
        yield server.address
    finally:
        server.cleanup()


@pytest.fixture(scope="session")
def sql_test_database(mariadb: MariaDbAddress) -> Iterator[SqlTestDatabase]:
    """A unique test database with data and a read-only account; dropped afterwards."""
    suffix = uuid.uuid4().hex[:12]
    database = f"fl_sql_{suffix}"
    user = f"fl_ro_{suffix}"
    password = secrets.token_hex(16)
    template = allowlist_settings()
    settings = template.model_copy(
        update={
            "url": f"mysql+pymysql://{user}:{password}@{mariadb.host}:{mariadb.port}/{database}"
        }
    )
    created = SqlTestDatabase(mariadb, database, user, password, settings)
    root = mariadb.engine()
    try:
        with root.connect() as connection:
            connection.exec_driver_sql(f"CREATE DATABASE `{database}` CHARACTER SET utf8mb4")
            connection.exec_driver_sql(f"USE `{database}`")
            for statement in dataset_statements():
                connection.exec_driver_sql(statement)
            connection.exec_driver_sql(
                "INSERT INTO ledger (id, bucket) VALUES (%s, %s)", ledger_rows()
            )
            connection.exec_driver_sql(
                f"CREATE USER {created.account} IDENTIFIED BY %s", (password,)
            )
            for grant in grant_statements(created.policy, database, created.account):
                connection.exec_driver_sql(grant)
        yield created
    finally:
        with root.connect() as connection:
            connection.exec_driver_sql(f"DROP USER IF EXISTS {created.account}")
            connection.exec_driver_sql(f"DROP DATABASE IF EXISTS `{database}`")
        root.dispose()
