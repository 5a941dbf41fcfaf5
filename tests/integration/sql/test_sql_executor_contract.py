"""The SqlExecutor contract (``tests/contracts/sql_executor_contract.py``) on SQLite, MariaDB
and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from factledger.adapters.config.sql import SqlDatasourceSettings
from factledger.adapters.sql.mysql_executor import MySqlExecutor
from factledger.adapters.sql.policy import policy_from_settings
from factledger.adapters.sql.postgres_executor import PostgresExecutor
from factledger.adapters.sql.sqlite_executor import SqliteExecutor
from factledger.domain.sql.cost import CostLimits
from factledger.domain.sql.policy import SqlPolicy
from factledger.ports.sql import SqlExecutor
from tests.contracts.sql_executor_contract import SqlExecutorContract
from tests.support.mariadb_fixtures import SqlTestDatabase
from tests.support.postgres_fixtures import PgTestDatabase
from tests.support.processes import free_port

pytestmark = pytest.mark.integration


class TestSqliteExecutor(SqlExecutorContract):
    @pytest.fixture(autouse=True)
    def _datasource(self, sqlite_settings: SqlDatasourceSettings, tmp_path: Path) -> None:
        self.settings = sqlite_settings
        self.missing = tmp_path / "missing.db"

    def policy(self) -> SqlPolicy:
        return policy_from_settings(self.settings)

    def executor(self, cost_limits: CostLimits | None = None) -> SqlExecutor:
        return SqliteExecutor(self.policy(), self.settings.url, cost_limits=cost_limits)

    def unreachable(self) -> SqlExecutor:
        return SqliteExecutor(self.policy(), f"sqlite:///{self.missing}")


class TestMariaDbExecutor(SqlExecutorContract):
    @pytest.fixture(autouse=True)
    def _datasource(self, sql_test_database: SqlTestDatabase) -> None:
        self.database = sql_test_database

    def policy(self) -> SqlPolicy:
        return self.database.policy

    def executor(self, cost_limits: CostLimits | None = None) -> SqlExecutor:
        return MySqlExecutor("payments", self.database.settings.url, cost_limits=cost_limits)

    def unreachable(self) -> SqlExecutor:
        port = self.database.address.port
        url = self.database.settings.url.replace(f":{port}/", f":{free_port()}/")
        return MySqlExecutor("payments", url)


class TestPostgresExecutor(SqlExecutorContract):
    @pytest.fixture(autouse=True)
    def _datasource(self, pg_test_database: PgTestDatabase) -> None:
        self.database = pg_test_database

    def policy(self) -> SqlPolicy:
        return self.database.policy

    def executor(self, cost_limits: CostLimits | None = None) -> SqlExecutor:
        return PostgresExecutor("payments_pg", self.database.settings.url, cost_limits=cost_limits)

    def unreachable(self) -> SqlExecutor:
        url = self.database.settings.url.replace(":5432/", f":{free_port()}/")
        return PostgresExecutor("payments_pg", url)
