"""The validator's plan: what it reads, what it returns, the SQL it regenerates."""

from __future__ import annotations

import pytest
from returns.pipeline import is_successful

from factledger.domain.sql.plan import OutputColumn
from factledger.domain.sql.policy import SqlLimits, SqlPolicy, TablePolicy
from factledger.domain.sql.refusal import RefusalCode
from factledger.domain.sql.render import render_sql
from factledger.domain.sql.validator import SqlValidator, validate_sql
from tests.unit.sql.corpus import corpus_policy

POLICY = corpus_policy()


def refusal(sql: str, policy: SqlPolicy = POLICY) -> RefusalCode:
    result = validate_sql(policy, sql)
    assert not is_successful(result), result
    return result.failure().code


def test_a_plan_names_its_tables_columns_and_output_in_the_allowlist_spelling() -> None:
    plan = validate_sql(
        POLICY,
        "select O.Status, count(*) as N from ORDERS o join USERS u on u.ID = o.user_id "
        "group by o.status",
    ).unwrap()
    assert plan.datasource == "payments"
    assert plan.tables == ("orders", "users")
    assert plan.columns == ("orders.status", "orders.user_id", "users.id")
    assert plan.output_columns == (OutputColumn("status", False), OutputColumn("N", False))
    assert plan.sql == (
        "SELECT `o`.`status`, COUNT(*) AS `N` FROM `orders` AS `o` JOIN `users` AS `u` "
        "ON `u`.`id` = `o`.`user_id` GROUP BY `o`.`status` LIMIT 201"
    )


def test_a_missing_limit_becomes_the_row_cap_and_the_sql_asks_for_one_row_more() -> None:
    plan = validate_sql(POLICY, "SELECT id FROM orders").unwrap()
    assert plan.row_limit == 200
    assert plan.sql.endswith("LIMIT 201")


def test_a_larger_limit_is_clamped_and_a_smaller_one_kept() -> None:
    assert validate_sql(POLICY, "SELECT id FROM orders LIMIT 5000").unwrap().row_limit == 200
    small = validate_sql(POLICY, "SELECT id FROM orders LIMIT 5, 10").unwrap()
    assert small.row_limit == 10
    assert small.sql.endswith("LIMIT 11 OFFSET 5")


def test_the_limit_of_a_union_applies_to_the_whole_union() -> None:
    plan = validate_sql(
        POLICY, "SELECT status FROM orders UNION SELECT service FROM payments_log LIMIT 3"
    ).unwrap()
    assert plan.row_limit == 3
    assert plan.sql.endswith("UNION SELECT `service` FROM `payments_log` LIMIT 4")


def test_a_sensitive_column_is_marked_by_origin_whatever_its_alias() -> None:
    plan = validate_sql(POLICY, "SELECT name, api_token AS harmless FROM users").unwrap()
    assert plan.output_columns == (
        OutputColumn("name", False),
        OutputColumn("harmless", True),
    )


def test_the_own_schema_qualifier_is_accepted_and_dropped() -> None:
    plan = validate_sql(POLICY, "SELECT o.id FROM payments.orders o").unwrap()
    assert "payments" not in plan.sql


def test_string_literals_are_regenerated_without_any_backslash() -> None:
    plan = validate_sql(POLICY, "SELECT id FROM orders WHERE status = 'it''s' OR status = \"x\"")
    assert plan.unwrap().sql == (
        "SELECT `id` FROM `orders` WHERE `status` = 'it''s' OR `status` = 'x' LIMIT 201"
    )


def test_a_query_nested_past_the_limit_is_refused_before_parsing() -> None:
    assert refusal("SELECT " + "(" * 17 + "1" + ")" * 17) is RefusalCode.NESTING_TOO_DEEP
    assert validate_sql(POLICY, "SELECT " + "(" * 15 + "1" + ")" * 15).unwrap()


def test_many_is_not_null_tests_do_not_count_as_nesting() -> None:
    conditions = " AND ".join(["status IS NOT NULL"] * 20)
    assert validate_sql(POLICY, f"SELECT id FROM orders WHERE {conditions}").unwrap()


def test_a_correlated_reference_must_be_qualified() -> None:
    # In MySQL an unqualified name a subquery cannot resolve falls through to the outer query;
    # the validator never lets it, so it cannot disagree with MySQL about which column it is.
    sql = "SELECT id FROM orders WHERE EXISTS (SELECT 1 FROM users WHERE status = 'failed')"
    assert refusal(sql) is RefusalCode.UNLISTED_COLUMN


def test_an_unqualified_column_two_sources_have_is_ambiguous() -> None:
    sql = "SELECT id FROM orders o JOIN users u ON u.id = o.user_id"
    assert refusal(sql) is RefusalCode.AMBIGUOUS_COLUMN


def test_a_derived_table_cannot_see_the_outer_query() -> None:
    sql = (
        "SELECT o.id FROM orders o "
        "JOIN (SELECT u.id FROM users u WHERE u.id = o.user_id) d ON d.id = o.id"
    )
    assert refusal(sql) is RefusalCode.UNLISTED_TABLE


def test_a_sqlite_datasource_refuses_functions_that_do_not_transpile() -> None:
    sqlite = corpus_policy("sqlite")
    assert refusal("SELECT LEFT(status, 2) AS s FROM orders", sqlite) is (
        RefusalCode.UNSUPPORTED_ON_DATASOURCE
    )
    assert refusal("SELECT DATE_SUB(created_at, INTERVAL 1 MONTH) AS d FROM orders", sqlite) is (
        RefusalCode.UNSUPPORTED_ON_DATASOURCE
    )
    assert validate_sql(sqlite, "SELECT DATE(created_at) AS d FROM orders").unwrap()


def test_a_sqlite_plan_carries_the_sqlite_text_it_runs() -> None:
    plan = validate_sql(corpus_policy("sqlite"), "SELECT IF(amount > 50, 1, 0) AS big FROM orders")
    assert plan.unwrap().sql == 'SELECT IIF("amount" > 50, 1, 0) AS "big" FROM "orders" LIMIT 201'
    mysql = validate_sql(POLICY, "SELECT IF(amount > 50, 1, 0) AS big FROM orders").unwrap()
    assert render_sql(mysql.sql, "sqlite").unwrap() == plan.unwrap().sql


def test_limits_come_from_the_policy() -> None:
    tight = SqlPolicy(
        datasource="tiny",
        dialect="mysql",
        tables=(TablePolicy("t", ("a", "b")),),
        limits=SqlLimits(max_rows=10, max_joins=0, max_length=40),
    )
    assert validate_sql(tight, "SELECT a FROM t").unwrap().row_limit == 10
    assert refusal("SELECT x.a FROM t x JOIN t y ON y.a = x.a", tight) is (
        RefusalCode.QUERY_TOO_LONG
    )
    assert refusal("SELECT x.a FROM t x JOIN t y ON x.a=1", tight) is RefusalCode.TOO_COMPLEX


def test_the_validator_object_checks_against_its_policy() -> None:
    validator = SqlValidator(POLICY)
    assert validator.policy is POLICY
    assert validator.validate("SELECT id FROM orders").unwrap().tables == ("orders",)


@pytest.mark.parametrize(
    ("columns", "sensitive"),
    [(("a", "A"), ()), (("a",), ("b",))],
)
def test_a_table_policy_refuses_duplicate_or_unlisted_sensitive_columns(
    columns: tuple[str, ...], sensitive: tuple[str, ...]
) -> None:
    with pytest.raises(ValueError, match="table 't'"):
        TablePolicy("t", columns, frozenset(sensitive))
