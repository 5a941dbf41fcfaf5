"""Plans on the real MariaDB: typed and redacted results, time limits enforced on the server,
and stable codes for every failure."""

from __future__ import annotations

import threading
import time
from urllib.parse import quote

import pytest
from attrs import evolve
from sqlalchemy.exc import DBAPIError

from factledger.adapters.config.sql import SqlSettings
from factledger.adapters.sql.mysql_executor import MySqlExecutor, kill_query
from factledger.adapters.sql.tool import SqlTool
from factledger.domain.sql.cost import CostLimits
from factledger.domain.sql.projector import project_sql_result
from factledger.domain.sql.redaction import REDACTED
from factledger.domain.sql.validator import validate_sql
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from factledger.ports.sql import SqlFailureCode
from tests.support.mariadb_fixtures import SqlTestDatabase
from tests.support.processes import free_port

pytestmark = pytest.mark.integration

SLOW = (
    "SELECT COUNT(*) AS n FROM ledger a JOIN ledger b ON a.bucket = b.bucket "
    "JOIN ledger c ON b.bucket = c.bucket"
)
"""Joins that relate rows, on a column with ten values: 270 million rows, seconds of work."""


def _account_queries(database: SqlTestDatabase) -> list[tuple[int, str, str | None]]:
    """(id, command, statement) of every session the read-only account has open."""
    root = database.root_engine()
    try:
        with root.connect() as connection:
            rows = connection.exec_driver_sql(
                "SELECT ID, COMMAND, INFO FROM information_schema.PROCESSLIST WHERE USER = %s",
                (database.account_user,),
            ).all()
    finally:
        root.dispose()
    return [(int(row[0]), str(row[1]), None if row[2] is None else str(row[2])) for row in rows]


def _running(database: SqlTestDatabase) -> list[tuple[int, str, str | None]]:
    return [row for row in _account_queries(database) if row[1] == "Query"]


def _wait_until_idle(database: SqlTestDatabase, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _running(database):
            return True
        time.sleep(0.05)
    return False


def test_a_result_is_projected_with_its_types_kept_and_sensitive_columns_redacted(
    mariadb_tool: SqlTool,
) -> None:
    people = mariadb_tool.run(
        "payments", "SELECT id, name, api_token, password_hash AS hash FROM users ORDER BY id", 5.0
    )
    projected = project_sql_result(people.unwrap()).unwrap()
    assert projected.agent_result["columns"] == ["id", "name", "api_token", "hash"]
    assert projected.agent_result["rows"] == [
        [1, "alice", REDACTED, REDACTED],
        [2, "bob", REDACTED, REDACTED],
        [3, "carol", REDACTED, REDACTED],
    ]
    assert "tok_live" not in str(projected.agent_result)

    totals = mariadb_tool.run(
        "payments",
        "SELECT user_id, COUNT(*) AS n, SUM(amount) AS spent, MAX(created_at) AS last_order, "
        "COUNT(*) > 2 AS busy, AVG(amount) > 1000 AS whale FROM orders "
        "GROUP BY user_id ORDER BY user_id",
        5.0,
    )
    result = project_sql_result(totals.unwrap()).unwrap()
    assert result.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    assert result.agent_result["rows"] == [
        [1, 3, 132.44, "2024-05-01 11:05:00", 1, 0],
        [2, 2, 12.75, "2024-05-01 10:31:00", 0, 0],
        [3, 2, 193.0, "2024-05-01 10:44:00", 0, 0],
    ]
    assert result.agent_result["scope"] == {
        "datasource": "payments",
        "tables": ["orders"],
        "columns": ["orders.amount", "orders.created_at", "orders.user_id"],
        "sql": result.agent_result["scope"]["sql"],  # type: ignore[call-overload,index]
        "dialect": "mysql",
    }


def test_an_empty_result_is_no_evidence(mariadb_tool: SqlTool) -> None:
    raw = mariadb_tool.run("payments", "SELECT id FROM orders WHERE status = 'lost'", 5.0)
    result = project_sql_result(raw.unwrap()).unwrap()
    assert result.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert result.agent_result["returned_count"] == 0


def test_string_literals_reach_the_server_untouched(mariadb_tool: SqlTool) -> None:
    raw = mariadb_tool.run(
        "payments",
        "SELECT 'a :name b' AS bind_like, '100%' AS percent, 'it''s' AS quote, 'zoë' AS accent",
        5.0,
    )
    rows = project_sql_result(raw.unwrap()).unwrap().agent_result["rows"]
    assert rows == [["a :name b", "100%", "it's", "zoë"]]


def test_a_clamped_limit_fetches_one_row_more_and_says_truncated(mariadb_tool: SqlTool) -> None:
    raw = mariadb_tool.run("payments", "SELECT id FROM ledger ORDER BY id LIMIT 100000", 5.0)
    result = project_sql_result(raw.unwrap()).unwrap()
    assert result.agent_result["returned_count"] == 200
    assert result.truncated is True
    assert len(result.agent_result["rows"]) == 50  # type: ignore[arg-type]


def _unlimited_tool(database: SqlTestDatabase) -> SqlTool:
    """The SQL tool with the cost gate opened wide, so a slow plan reaches the server."""
    settings = database.settings.model_copy(update={"max_estimated_rows": 10**15})
    tool = SqlTool.from_settings(SqlSettings(datasources=[settings]))
    assert tool is not None
    return tool


def test_a_slow_query_is_stopped_on_the_server_at_its_time_limit(
    sql_test_database: SqlTestDatabase,
) -> None:
    tool = _unlimited_tool(sql_test_database)
    try:
        result = tool.run("payments", SLOW, 0.5)
    finally:
        tool.close()
    assert result.failure() == BackendFailure(BackendFailureKind.BACKEND_TIMEOUT, "TIMEOUT")
    # The server stopped the statement itself: nothing of the account is still running.
    assert _wait_until_idle(sql_test_database), _running(sql_test_database)


def test_kill_query_from_a_second_connection_stops_a_running_statement(
    sql_test_database: SqlTestDatabase,
) -> None:
    engine = sql_test_database.account_engine()
    errors: list[object] = []
    started = threading.Event()

    def run_slow() -> None:
        with engine.connect() as connection:
            connection.exec_driver_sql("SET SESSION max_statement_time = 0")  # no server limit
            started.set()
            try:
                connection.exec_driver_sql(SLOW)
            except DBAPIError as error:
                errors.append(error.orig.args[0] if error.orig is not None else None)

    worker = threading.Thread(target=run_slow)
    worker.start()
    try:
        assert started.wait(10)
        deadline = time.monotonic() + 10
        while not _running(sql_test_database) and time.monotonic() < deadline:
            time.sleep(0.02)
        (thread_id, _, statement), *_ = _running(sql_test_database)
        assert statement is not None
        assert "ledger" in statement
        assert kill_query(engine, thread_id)
        worker.join(30)
        assert errors == [1317]  # query execution was interrupted
        assert _wait_until_idle(sql_test_database)
    finally:
        worker.join(60)
        engine.dispose()


_CLIENT_LOCAL_FILES = 1 << 7
_CLIENT_MULTI_STATEMENTS = 1 << 16


def test_the_connection_has_multi_statements_and_local_infile_off(
    sql_test_database: SqlTestDatabase,
) -> None:
    executor = MySqlExecutor("payments", sql_test_database.settings.url)
    try:
        raw = executor.engine.raw_connection()
        try:
            connection = raw.dbapi_connection
            assert hasattr(connection, "client_flag"), "pymysql keeps its flags"
            flags = int(getattr(connection, "client_flag"))  # noqa: B009  # not on the DBAPI type
            assert not flags & _CLIENT_MULTI_STATEMENTS
            assert not flags & _CLIENT_LOCAL_FILES
            cursor = raw.cursor()
            with pytest.raises(Exception, match="1064"):
                cursor.execute("SELECT 1; SELECT 2")
        finally:
            raw.close()
    finally:
        executor.close()


def test_a_plan_runs_under_the_fixed_sql_mode_whatever_the_session_started_with(
    sql_test_database: SqlTestDatabase,
) -> None:
    # The connection starts with a permissive, quote-changing sql_mode; the executor replaces
    # it on every call, so ONLY_FULL_GROUP_BY holds and quoting means what the plan means.
    hostile = "SET SESSION sql_mode = 'ANSI_QUOTES,NO_BACKSLASH_ESCAPES,PIPES_AS_CONCAT'"
    url = f"{sql_test_database.settings.url}?init_command={quote(hostile)}"
    tool = SqlTool.from_settings(
        SqlSettings(datasources=[sql_test_database.settings.model_copy(update={"url": url})])
    )
    assert tool is not None
    try:
        raw = tool.run("payments", 'SELECT id FROM orders WHERE status = "failed"', 5.0)
        rows = project_sql_result(raw.unwrap()).unwrap().agent_result["rows"]
        assert rows == [[2], [3], [6]]
        loose = tool.run("payments", "SELECT status, amount FROM orders GROUP BY status", 5.0)
        assert loose.failure() == BackendFailure(BackendFailureKind.BACKEND_ERROR, "QUERY_FAILED")
    finally:
        tool.close()


def test_an_allowlist_wider_than_the_grants_is_refused_by_the_database(
    sql_test_database: SqlTestDatabase,
) -> None:
    policy = sql_test_database.policy
    orders = policy.table("orders")
    assert orders is not None
    wider = evolve(orders, columns=(*orders.columns, "internal_note"))
    widened = evolve(
        policy, tables=tuple(wider if t.name == "orders" else t for t in policy.tables)
    )
    plan = validate_sql(widened, "SELECT internal_note FROM orders").unwrap()
    executor = MySqlExecutor("payments", sql_test_database.settings.url)
    try:
        outcome = executor.execute(plan, 5.0)
    finally:
        executor.close()
    assert outcome.failure().code is SqlFailureCode.ACCESS_DENIED


def test_a_forged_plan_that_writes_is_refused_by_the_database(
    sql_test_database: SqlTestDatabase,
) -> None:
    plan = validate_sql(sql_test_database.policy, "SELECT id FROM orders").unwrap()
    forged = evolve(plan, sql="UPDATE orders SET status = 'paid'")
    executor = MySqlExecutor("payments", sql_test_database.settings.url)
    try:
        outcome = executor.execute(forged, 5.0)
    finally:
        executor.close()
    assert outcome.failure().code in (SqlFailureCode.ACCESS_DENIED, SqlFailureCode.QUERY_FAILED)
    root = sql_test_database.root_engine()
    try:
        with root.connect() as connection:
            paid = connection.exec_driver_sql(
                "SELECT COUNT(*) FROM orders WHERE status = 'paid'"
            ).scalar_one()
    finally:
        root.dispose()
    assert paid == 2


def test_a_plan_for_another_datasource_is_not_run(sql_test_database: SqlTestDatabase) -> None:
    plan = validate_sql(sql_test_database.policy, "SELECT id FROM orders").unwrap()
    executor = MySqlExecutor("billing", sql_test_database.settings.url)
    try:
        assert executor.execute(plan, 5.0).failure().code is SqlFailureCode.WRONG_DATASOURCE
    finally:
        executor.close()


def test_an_unreachable_server_is_unavailable(sql_test_database: SqlTestDatabase) -> None:
    url = sql_test_database.settings.url.replace(
        f":{sql_test_database.address.port}/", f":{free_port()}/"
    )
    tool = SqlTool.from_settings(
        SqlSettings(datasources=[sql_test_database.settings.model_copy(update={"url": url})])
    )
    assert tool is not None
    try:
        failure = tool.run("payments", "SELECT id FROM orders", 5.0).failure()
    finally:
        tool.close()
    assert failure == BackendFailure(BackendFailureKind.BACKEND_ERROR, "UNAVAILABLE")


class _NoServerLimit(MySqlExecutor):
    """An executor on a server that ignores the session time limit: only the watchdog acts."""

    def _time_limit_clause(self, limit: float, mariadb: bool) -> str:
        return "SESSION max_statement_time = 0"


def test_the_watchdog_kills_a_statement_the_server_did_not_stop(
    sql_test_database: SqlTestDatabase,
) -> None:
    policy = sql_test_database.policy
    executor = _NoServerLimit(
        "payments",
        sql_test_database.settings.url,
        kill_grace_seconds=0.2,
        cost_limits=CostLimits(max_estimated_rows=10**15),
    )
    try:
        outcome = executor.execute(validate_sql(policy, SLOW).unwrap(), 0.3)
    finally:
        executor.close()
    assert outcome.failure().code is SqlFailureCode.TIMEOUT
    assert _wait_until_idle(sql_test_database), _running(sql_test_database)
