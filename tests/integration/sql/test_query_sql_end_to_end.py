"""``query_sql`` end to end: registered from settings, called through the interceptor and the
boundary, against SQLite and MariaDB; refusals never reach the database."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.config.sql import SqlDatasourceSettings, SqlSettings
from factledger.application.canonical_view import CanonicalInvocation
from factledger.application.interceptor import Observed
from factledger.application.run_service import StartedRun
from factledger.domain.json_types import JsonObject
from factledger.domain.run_events import DiagnosisContext
from tests.support.mariadb_fixtures import SqlTestDatabase

pytestmark = pytest.mark.integration


@pytest.fixture(params=["sqlite", "mariadb"])
def datasource(
    request: pytest.FixtureRequest, sqlite_settings: SqlDatasourceSettings
) -> SqlDatasourceSettings:
    if request.param == "mariadb":
        database: SqlTestDatabase = request.getfixturevalue("sql_test_database")
        return database.settings
    return sqlite_settings


@pytest.fixture
def runtime(datasource: SqlDatasourceSettings) -> Iterator[Runtime]:
    built = build_runtime(Settings(sql=SqlSettings(datasources=[datasource])))
    yield built
    built.close()


def _call(
    runtime: Runtime, run_id: str, tool_call_id: str, datasource: str, sql: str
) -> JsonObject:
    arguments = json.dumps({"input": {"datasource": datasource, "sql": sql}})
    handled = runtime.interceptor.handle(run_id, tool_call_id, "query_sql", arguments)
    assert isinstance(handled, Observed)
    return handled.observation


def _start(runtime: Runtime) -> str:
    started = runtime.run_service.start(
        budget=runtime.budget,
        tools=runtime.registry.grants,
        context=DiagnosisContext("payments-api"),
    )
    assert isinstance(started, StartedRun)
    return started.run_id


def test_the_tool_is_registered_only_with_a_datasource(runtime: Runtime) -> None:
    assert "query_sql" in runtime.registry.names
    unconfigured = build_runtime(Settings(store=StoreSettings(kind="memory")))
    assert "query_sql" not in unconfigured.registry.names
    unconfigured.close()


def test_a_query_runs_through_the_boundary_with_types_kept_and_secrets_redacted(
    runtime: Runtime, datasource: SqlDatasourceSettings
) -> None:
    run_id = _start(runtime)
    observation = _call(
        runtime,
        run_id,
        "q1",
        datasource.name,
        "SELECT u.id, u.email, u.api_token, o.amount FROM users u "
        "JOIN orders o ON o.user_id = u.id ORDER BY o.id LIMIT 3",
    )
    assert observation["status"] == "READY", observation
    assert observation["evidence_status"] == "EVIDENCE_FOUND"
    assert observation["columns"] == ["id", "email", "api_token", "amount"]
    rows = observation["rows"]
    assert isinstance(rows, list)
    assert rows
    for row in rows:
        assert isinstance(row, list)
        assert isinstance(row[0], int)
        assert row[2] in ("[REDACTED]", None)
        assert isinstance(row[3], int | float)
    scope = observation["scope"]
    assert isinstance(scope, dict)
    assert scope["datasource"] == datasource.name
    assert "returned_count" not in observation
    record = runtime.canonical.read(run_id, "q1")
    assert isinstance(record, CanonicalInvocation)
    assert record.is_citable


@pytest.mark.parametrize(
    ("sql", "reason"),
    [
        ("SELECT id FROM orders; DROP TABLE orders", "MULTI_STATEMENT"),
        ("SELECT * FROM orders", "WILDCARD"),
        ("SELECT internal_note FROM orders", "UNLISTED_COLUMN"),
        ("SELECT user FROM mysql.user", None),
    ],
)
def test_a_query_outside_the_sandbox_is_an_invalid_request_that_never_ran(
    runtime: Runtime, datasource: SqlDatasourceSettings, sql: str, reason: str | None
) -> None:
    run_id = _start(runtime)
    observation = _call(runtime, run_id, "q1", datasource.name, sql)
    assert observation["status"] == "ERROR"
    assert observation["error_code"] == "INVALID_REQUEST"
    assert isinstance(observation["reason"], str)
    if reason is not None:
        assert observation["reason"] == reason


def test_an_empty_result_is_a_scoped_negative(
    runtime: Runtime, datasource: SqlDatasourceSettings
) -> None:
    run_id = _start(runtime)
    observation = _call(
        runtime, run_id, "q1", datasource.name, "SELECT id FROM orders WHERE status = 'NO-SUCH'"
    )
    assert observation["status"] == "READY"
    assert observation["evidence_status"] == "NO_EVIDENCE"
    assert observation["rows"] == []
