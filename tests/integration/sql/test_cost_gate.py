"""The cost gate on real servers: ten queries that relate rows but would examine billions of
them, on tables of 100,000 rows, are refused COST_TOO_HIGH from the engine's own EXPLAIN, and
the server's own counters say it was busy for at most a second in all."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from factledger.adapters.config.sql import SqlSettings
from factledger.adapters.sql.tool import SqlTool
from factledger.domain.sql.validator import validate_sql
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from tests.support.mariadb_server import MariaDbAddress
from tests.support.sql_load import (
    CHEAP_QUERY,
    HEAVY_QUERIES,
    LoadDatabase,
    create_mariadb,
    create_postgres,
    drop_mariadb,
    drop_postgres,
    mariadb_counters,
    postgres_counters,
)
from tests.unit.sql.corpus import CORPUS_NOW

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REFUSED = BackendFailure(BackendFailureKind.INVALID_REQUEST, "COST_TOO_HIGH")


@pytest.fixture(scope="module")
def mariadb_load(mariadb: MariaDbAddress) -> Iterator[LoadDatabase]:
    load = create_mariadb(mariadb)
    try:
        yield load
    finally:
        drop_mariadb(mariadb, load)


@pytest.fixture(scope="module")
def postgres_load(pg_test_database: object) -> Iterator[LoadDatabase]:
    load = create_postgres()
    try:
        yield load
    finally:
        drop_postgres(load)


def _run_all(load: LoadDatabase) -> list[object]:
    tool = SqlTool.from_settings(SqlSettings(datasources=[load.settings]))
    assert tool is not None
    try:
        return [tool.run(load.settings.name, sql, 5.0) for sql in HEAVY_QUERIES]
    finally:
        tool.close()


def test_every_heavy_query_passes_the_validator() -> None:
    # They are refused for their cost, not for their shape.
    from factledger.adapters.sql.policy import policy_from_settings
    from tests.support.sql_load import _settings

    for url in ("mysql+pymysql://u@h/d", "postgresql+psycopg://u@h/d"):
        policy = policy_from_settings(_settings("load", url))
        for sql in HEAVY_QUERIES:
            assert validate_sql(policy, sql, CORPUS_NOW).unwrap(), sql


def test_ten_heavy_queries_keep_mariadb_busy_for_at_most_a_second(
    mariadb: MariaDbAddress, mariadb_load: LoadDatabase
) -> None:
    busy_before, read_before = mariadb_counters(mariadb, mariadb_load)
    outcomes = _run_all(mariadb_load)
    busy_after, read_after = mariadb_counters(mariadb, mariadb_load)
    assert [outcome.failure() for outcome in outcomes] == [REFUSED] * len(HEAVY_QUERIES)  # type: ignore[attr-defined]
    assert busy_after - busy_before <= 1.0, busy_after - busy_before
    assert read_after - read_before < 1000  # EXPLAIN reads no table rows


def test_ten_heavy_queries_keep_postgresql_busy_for_at_most_a_second(
    postgres_load: LoadDatabase,
) -> None:
    active_before, returned_before = postgres_counters(postgres_load)
    outcomes = _run_all(postgres_load)
    active_after, returned_after = postgres_counters(postgres_load)
    assert [outcome.failure() for outcome in outcomes] == [REFUSED] * len(HEAVY_QUERIES)  # type: ignore[attr-defined]
    assert active_after - active_before <= 1.0, active_after - active_before
    assert returned_after - returned_before < 1000


@pytest.mark.parametrize("engine", ["mariadb", "postgres"])
def test_a_full_scan_of_one_big_table_is_under_the_gate_and_runs(
    engine: str, request: pytest.FixtureRequest
) -> None:
    load: LoadDatabase = request.getfixturevalue(f"{engine}_load")
    tool = SqlTool.from_settings(SqlSettings(datasources=[load.settings]))
    assert tool is not None
    try:
        raw = tool.run(load.settings.name, CHEAP_QUERY, 5.0)
    finally:
        tool.close()
    assert raw.unwrap()
