"""Every must-accept string of the red-team corpus runs on MariaDB (and, where the SQLite
dialect accepts it, on SQLite); every must-reject string is refused without a database call."""

from __future__ import annotations

import pytest
from returns.result import Failure

from factledger.adapters.config.sql import SqlDatasourceSettings
from factledger.adapters.sql.policy import policy_from_settings
from factledger.adapters.sql.tool import SqlTool
from factledger.domain.sql.projector import project_sql_result
from factledger.domain.sql.validator import validate_sql
from factledger.domain.tool_result import BackendFailureKind
from tests.support.mariadb_fixtures import SqlTestDatabase
from tests.unit.sql.corpus import cases

pytestmark = pytest.mark.integration


def _account_sessions(database: SqlTestDatabase) -> int:
    """How many sessions the read-only account has open on the server."""
    root = database.root_engine()
    try:
        with root.connect() as connection:
            count = connection.exec_driver_sql(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = %s",
                (database.account_user,),
            ).scalar_one()
    finally:
        root.dispose()
    return int(count)


def _on(database: SqlTestDatabase, sql: str) -> str:
    """The corpus names the datasource's own schema ``payments``; the test database differs."""
    return sql.replace("payments.", f"{database.database}.")


def test_every_must_accept_string_runs_on_mariadb(
    sql_test_database: SqlTestDatabase, mariadb_tool: SqlTool
) -> None:
    for case in cases("accept"):
        raw = mariadb_tool.run("payments", _on(sql_test_database, case.sql), 5.0)
        assert not isinstance(raw, Failure), (case.case_id, raw)
        assert project_sql_result(raw.unwrap()).unwrap(), case.case_id


def test_every_must_accept_string_the_sqlite_dialect_takes_runs_on_sqlite(
    sqlite_tool: SqlTool, sqlite_settings: SqlDatasourceSettings
) -> None:
    policy = policy_from_settings(sqlite_settings)
    ran = 0
    for case in cases("accept"):
        if isinstance(validate_sql(policy, case.sql), Failure):
            continue
        raw = sqlite_tool.run("payments_sqlite", case.sql, 5.0)
        assert not isinstance(raw, Failure), (case.case_id, raw)
        ran += 1
    assert ran >= 50


def test_every_must_reject_string_is_refused_and_never_opens_a_connection(
    sql_test_database: SqlTestDatabase, mariadb_tool: SqlTool
) -> None:
    for case in cases("reject"):
        failure = mariadb_tool.run("payments", _on(sql_test_database, case.sql), 5.0).failure()
        assert failure.kind is BackendFailureKind.INVALID_REQUEST, case.case_id
        assert failure.reason == case.reason, case.case_id
    assert _account_sessions(sql_test_database) == 0
