"""NOW() and its kin bound to the call's instant, and constant interval arithmetic folded."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from attrs import evolve

from factledger.domain.sql.instant import parse_offset
from factledger.domain.sql.refusal import RefusalCode
from factledger.domain.sql.validator import validate_sql
from tests.unit.sql.corpus import corpus_policy

MYSQL = corpus_policy("mysql")
POSTGRES = corpus_policy("postgres")
SQLITE = corpus_policy("sqlite")
NOW = datetime(2024, 3, 31, 23, 30, 5, tzinfo=UTC)


def sql(text: str, policy=MYSQL, now: datetime | None = NOW) -> str:  # type: ignore[no-untyped-def]  # policy: SqlPolicy
    return validate_sql(policy, text, now).unwrap().sql


@pytest.mark.parametrize(
    ("expression", "literal"),
    [
        ("NOW()", "CAST('2024-03-31 23:30:05' AS DATETIME)"),
        ("CURRENT_TIMESTAMP", "CAST('2024-03-31 23:30:05' AS DATETIME)"),
        ("CURRENT_TIMESTAMP()", "CAST('2024-03-31 23:30:05' AS DATETIME)"),
        ("SYSDATE()", "CAST('2024-03-31 23:30:05' AS DATETIME)"),
        ("LOCALTIMESTAMP", "CAST('2024-03-31 23:30:05' AS DATETIME)"),
        ("UTC_TIMESTAMP()", "CAST('2024-03-31 23:30:05' AS DATETIME)"),
        ("CURDATE()", "CAST('2024-03-31' AS DATE)"),
        ("CURRENT_DATE", "CAST('2024-03-31' AS DATE)"),
        ("UTC_DATE()", "CAST('2024-03-31' AS DATE)"),
        ("CURTIME()", "CAST('23:30:05' AS TIME)"),
        ("UTC_TIME()", "CAST('23:30:05' AS TIME)"),
        ("UNIX_TIMESTAMP()", "1711927805"),
        ("NOW(3)", "CAST('2024-03-31 23:30:05.000' AS DATETIME(3))"),
        ("NOW() - INTERVAL 1 DAY", "CAST('2024-03-30 23:30:05' AS DATETIME)"),
        ("NOW() + INTERVAL 30 MINUTE", "CAST('2024-04-01 00:00:05' AS DATETIME)"),
        ("INTERVAL 2 HOUR + NOW()", "CAST('2024-04-01 01:30:05' AS DATETIME)"),
        ("DATE_SUB(NOW(), INTERVAL 1 MONTH)", "CAST('2024-02-29 23:30:05' AS DATETIME)"),
        ("DATE_ADD(NOW(), INTERVAL 1 YEAR)", "CAST('2025-03-31 23:30:05' AS DATETIME)"),
        ("NOW() - INTERVAL 1 QUARTER", "CAST('2023-12-31 23:30:05' AS DATETIME)"),
        ("CURDATE() - INTERVAL 7 DAY", "CAST('2024-03-24' AS DATE)"),
        ("NOW() - INTERVAL 1 DAY - INTERVAL 1 HOUR", "CAST('2024-03-30 22:30:05' AS DATETIME)"),
    ],
)
def test_mysql_current_time_becomes_a_literal_of_the_instant(expression: str, literal: str) -> None:
    assert sql(f"SELECT {expression} AS t") == f"SELECT {literal} AS `t` LIMIT 201"


def test_the_datasource_time_zone_gives_the_wall_clock_and_utc_functions_stay_utc() -> None:
    east = evolve(MYSQL, time_zone=timezone(timedelta(hours=2)))
    assert "'2024-04-01 01:30:05'" in sql("SELECT NOW() AS t", east)
    assert "'2024-03-31 23:30:05'" in sql("SELECT UTC_TIMESTAMP() AS t", east)
    assert "'2024-04-01'" in sql("SELECT CURDATE() AS t", east)


@pytest.mark.parametrize(
    ("expression", "literal"),
    [
        ("now()", "CAST('2024-03-31 23:30:05+00:00' AS TIMESTAMPTZ)"),
        ("CURRENT_TIMESTAMP", "CAST('2024-03-31 23:30:05+00:00' AS TIMESTAMPTZ)"),
        ("transaction_timestamp()", "CAST('2024-03-31 23:30:05+00:00' AS TIMESTAMPTZ)"),
        ("clock_timestamp()", "CAST('2024-03-31 23:30:05+00:00' AS TIMESTAMPTZ)"),
        ("LOCALTIMESTAMP", "CAST('2024-03-31 23:30:05' AS TIMESTAMP)"),
        ("CURRENT_DATE", "CAST('2024-03-31' AS DATE)"),
        ("CURRENT_TIME", "CAST('23:30:05+00:00' AS TIMETZ)"),
        ("LOCALTIME", "CAST('23:30:05' AS TIME)"),
        ("now() - interval '15 minutes'", "CAST('2024-03-31 23:15:05+00:00' AS TIMESTAMPTZ)"),
        ("now() - interval '1 month'", "CAST('2024-02-29 23:30:05+00:00' AS TIMESTAMPTZ)"),
    ],
)
def test_postgresql_current_time_becomes_a_literal_of_the_instant(
    expression: str, literal: str
) -> None:
    assert sql(f"SELECT {expression} AS t", POSTGRES) == f'SELECT {literal} AS "t" LIMIT 201'


def test_an_interval_that_is_not_constant_is_left_to_the_engine() -> None:
    assert "INTERVAL" in sql("SELECT NOW() - INTERVAL '1 day 2 hours' AS t", POSTGRES)
    assert "INTERVAL `id` DAY" in sql("SELECT NOW() - INTERVAL id DAY AS t FROM orders")


def test_sqlite_runs_the_folded_literal() -> None:
    assert sql("SELECT id FROM orders WHERE created_at > NOW() - INTERVAL 2 HOUR", SQLITE) == (
        'SELECT "id" FROM "orders" WHERE "created_at" > DATETIME(\'2024-03-31 21:30:05\') LIMIT 201'
    )


def test_the_plan_keeps_the_instant_only_when_the_query_names_the_current_time() -> None:
    assert validate_sql(MYSQL, "SELECT NOW() AS t", NOW).unwrap().now == NOW
    assert validate_sql(MYSQL, "SELECT id FROM orders", NOW).unwrap().now is None


def test_without_an_instant_an_offline_check_keeps_the_current_time_as_written() -> None:
    plan = validate_sql(MYSQL, "SELECT NOW() - INTERVAL 1 DAY AS t").unwrap()
    assert plan.sql == "SELECT NOW() - INTERVAL '1' DAY AS `t` LIMIT 201"
    assert plan.now is None
    pg = validate_sql(POSTGRES, "SELECT now() AS t, CURRENT_DATE AS d").unwrap()
    assert pg.sql == 'SELECT CURRENT_TIMESTAMP AS "t", CURRENT_DATE AS "d" LIMIT 201'
    assert validate_sql(MYSQL, "SELECT NOW(7) AS t").failure().code is (
        RefusalCode.FORBIDDEN_FUNCTION
    )
    assert validate_sql(MYSQL, "SELECT RAND() AS r").failure().code is (
        RefusalCode.NONDETERMINISTIC_FUNCTION
    )


def test_sqlite_refuses_the_current_time_without_an_instant_and_a_naive_instant() -> None:
    refused = validate_sql(SQLITE, "SELECT NOW() AS t").failure().code
    assert refused is RefusalCode.NONDETERMINISTIC_FUNCTION
    naive = validate_sql(MYSQL, "SELECT NOW() AS t", NOW.replace(tzinfo=None)).failure().code
    assert naive is RefusalCode.NONDETERMINISTIC_FUNCTION


@pytest.mark.parametrize("text", ["SELECT NOW(7) AS t", "SELECT NOW(id) AS t FROM orders"])
def test_an_impossible_precision_is_refused(text: str) -> None:
    assert validate_sql(MYSQL, text, NOW).failure().code is RefusalCode.FORBIDDEN_FUNCTION


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("+00:00", timedelta(0)),
        ("-05:00", timedelta(hours=-5)),
        ("+05:45", timedelta(hours=5, minutes=45)),
    ],
)
def test_offsets_parse(text: str, offset: timedelta) -> None:
    zone = parse_offset(text)
    assert zone is not None
    assert zone.utcoffset(None) == offset


@pytest.mark.parametrize("text", ["UTC", "+5", "+15:00", "+05:60", "05:00"])
def test_other_time_zone_spellings_are_not_offsets(text: str) -> None:
    assert parse_offset(text) is None
