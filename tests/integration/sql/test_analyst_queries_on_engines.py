"""Every accepted analyst query runs on the real engine, through the read-only account, and
returns what the same query sent directly by that account returns (with the clock of the
direct session set to the instant the tool bound NOW() to)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import pytest
from returns.result import Failure

from factledger.adapters.config.sql import SqlDatasourceSettings, SqlSettings
from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.sql.policy import policy_from_settings
from factledger.adapters.sql.tool import SqlTool
from factledger.adapters.sql.values import to_json_scalar
from factledger.domain.json_types import JsonScalar
from factledger.domain.sql.raw_result import decode_raw_result
from factledger.domain.sql.validator import validate_sql
from tests.support.mariadb_fixtures import SqlTestDatabase
from tests.support.postgres_fixtures import PgTestDatabase
from tests.unit.sql.corpus import CORPUS_NOW, load_cases
from tests.unit.sql.test_analyst_queries import ANALYST_FILES

pytestmark = pytest.mark.integration

_PG_NOW = re.compile(
    r"\b(?:now\(\)|current_timestamp|transaction_timestamp\(\)|statement_timestamp\(\))",
    re.IGNORECASE,
)
_PG_TODAY = re.compile(r"\bcurrent_date\b", re.IGNORECASE)
_PG_LOCAL = re.compile(r"\blocaltimestamp\b", re.IGNORECASE)


def _tool(settings: SqlDatasourceSettings) -> Iterator[SqlTool]:
    tool = SqlTool.from_settings(SqlSettings(datasources=[settings]), clock=ManualClock(CORPUS_NOW))
    assert tool is not None
    try:
        yield tool
    finally:
        tool.close()


def _rows(raw_json: str) -> tuple[list[list[JsonScalar]], int]:
    raw = decode_raw_result(raw_json).unwrap()
    return [list(row) for row in raw.rows[: raw.row_limit]], raw.row_limit


def _key(row: Sequence[JsonScalar]) -> str:
    """A row as text, a whole float written as the integer it equals (PostgreSQL's
    ``date_part`` is a double, the ``EXTRACT`` it is written as a numeric: the same value)."""
    return repr([int(v) if isinstance(v, float) and v.is_integer() else v for v in row])


def _same(tool_rows: list[list[JsonScalar]], direct: Sequence[Sequence[object]], cap: int) -> bool:
    expected = [[to_json_scalar(value) for value in row] for row in direct][:cap]
    return sorted(map(_key, tool_rows)) == sorted(map(_key, expected))


def test_every_accepted_mysql_analyst_query_returns_what_mariadb_returns_directly(
    sql_test_database: SqlTestDatabase,
) -> None:
    policy = sql_test_database.policy
    engine = sql_test_database.account_engine()
    checked = 0
    try:
        for tool in _tool(sql_test_database.settings):
            with engine.connect() as connection:
                connection.exec_driver_sql(
                    f"SET time_zone = '+00:00', timestamp = {int(CORPUS_NOW.timestamp())}"
                )
                for case in load_cases(ANALYST_FILES["mysql"]):
                    if isinstance(validate_sql(policy, case.sql, CORPUS_NOW), Failure):
                        continue
                    raw = tool.run("payments", case.sql, 5.0)
                    assert not isinstance(raw, Failure), (case.case_id, raw)
                    rows, cap = _rows(raw.unwrap())
                    direct = (
                        connection.execution_options(no_parameters=True)
                        .exec_driver_sql(case.sql)
                        .all()
                    )
                    assert _same(rows, direct, cap), (case.case_id, rows, direct)
                    checked += 1
    finally:
        engine.dispose()
    assert checked >= 80


def _pg_direct(sql: str) -> str:
    """The analyst's text with the current time spelled as the instant the tool bound."""
    instant = CORPUS_NOW.strftime("%Y-%m-%d %H:%M:%S")
    sql = _PG_NOW.sub(f"'{instant}+00'::timestamptz", sql)
    sql = _PG_TODAY.sub(f"DATE '{CORPUS_NOW.date().isoformat()}'", sql)
    return _PG_LOCAL.sub(f"TIMESTAMP '{instant}'", sql)


def test_every_accepted_postgresql_analyst_query_returns_what_postgresql_returns_directly(
    pg_test_database: PgTestDatabase,
) -> None:
    policy = pg_test_database.policy
    checked = 0
    with pg_test_database.as_role() as connection:
        connection.execute(b"SET TIME ZONE 'UTC'")
        for tool in _tool(pg_test_database.settings):
            for case in load_cases(ANALYST_FILES["postgres"]):
                if isinstance(validate_sql(policy, case.sql, CORPUS_NOW), Failure):
                    continue
                raw = tool.run("payments_pg", case.sql, 5.0)
                assert not isinstance(raw, Failure), (case.case_id, raw)
                rows, cap = _rows(raw.unwrap())
                direct = connection.execute(_pg_direct(case.sql).encode()).fetchall()
                assert _same(rows, direct, cap), (case.case_id, rows, direct)
                checked += 1
    assert checked >= 80


def test_every_mysql_analyst_query_a_sqlite_datasource_accepts_runs_on_sqlite(
    sqlite_settings: SqlDatasourceSettings,
) -> None:
    policy = policy_from_settings(sqlite_settings)
    ran = 0
    for tool in _tool(sqlite_settings):
        for case in load_cases(ANALYST_FILES["sqlite"]):
            if isinstance(validate_sql(policy, case.sql, CORPUS_NOW), Failure):
                continue
            raw = tool.run(sqlite_settings.name, case.sql, 5.0)
            assert not isinstance(raw, Failure), (case.case_id, raw)
            ran += 1
    assert ran >= 80
