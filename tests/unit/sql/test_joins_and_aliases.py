"""Joins must relate rows; an alias that shadows a column is written so no engine misreads it."""

from __future__ import annotations

import pytest

from factledger.domain.sql.refusal import RefusalCode
from factledger.domain.sql.validator import validate_sql
from tests.unit.sql.corpus import CORPUS_NOW, corpus_policy

POLICY = corpus_policy()


def sql(text: str) -> str:
    return validate_sql(POLICY, text, CORPUS_NOW).unwrap().sql


def code(text: str) -> RefusalCode:
    return validate_sql(POLICY, text, CORPUS_NOW).failure().code


@pytest.mark.parametrize(
    "condition",
    [
        "b.order_id = o.id",
        "o.id = b.order_id",
        "(b.order_id = o.id)",
        "b.order_id = o.id AND b.outcome = 'ok'",
        "b.outcome = 'ok' AND (b.order_id = o.id AND b.latency_ms > 0)",
        "b.order_id <=> o.id",
    ],
)
def test_an_equality_between_a_column_of_each_side_relates_the_rows(condition: str) -> None:
    assert sql(f"SELECT o.id FROM orders o JOIN payments_log b ON {condition}")


@pytest.mark.parametrize(
    "condition",
    [
        "1 = 1",
        "TRUE",
        "b.id = b.id",
        "o.id = o.id",
        "b.order_id <> o.id",
        "b.order_id >= o.id",
        "b.order_id >= 0",
        "b.order_id = o.id OR b.outcome = 'ok'",
        "b.order_id + 0 = o.id",
        "b.order_id = o.id + 0",
        "b.order_id IN (o.id)",
        "NOT b.order_id <> o.id",
        "b.order_id = 3 AND o.id = 3",
    ],
)
def test_a_condition_that_does_not_equate_the_two_sides_is_refused(condition: str) -> None:
    assert code(f"SELECT o.id FROM orders o JOIN payments_log b ON {condition}") is (
        RefusalCode.UNRELATED_JOIN
    )


def test_each_join_of_a_chain_relates_to_a_source_before_it() -> None:
    assert sql(
        "SELECT o.id FROM orders o JOIN users u ON u.id = o.user_id "
        "JOIN payments_log p ON p.order_id = o.id"
    )
    assert (
        code(
            "SELECT o.id FROM orders o JOIN users u ON u.id = p.order_id "
            "JOIN payments_log p ON p.order_id = o.id"
        )
        is RefusalCode.UNRELATED_JOIN
    )


def test_a_correlated_outer_column_does_not_count_as_a_side() -> None:
    assert (
        code(
            "SELECT o.id FROM orders o WHERE EXISTS (SELECT 1 FROM users u "
            "JOIN payments_log p ON p.order_id = o.id)"
        )
        is RefusalCode.UNRELATED_JOIN
    )


def test_self_joins_and_subquery_nesting_are_bounded() -> None:
    three = "SELECT a.id FROM ledger a JOIN ledger b ON b.id = a.id JOIN ledger c ON c.id = b.id"
    assert sql(three)
    assert code(three + " JOIN ledger d ON d.id = c.id") is RefusalCode.TOO_COMPLEX
    nested = "SELECT id FROM orders WHERE user_id IN (SELECT id FROM users WHERE id IN ("
    three_deep = (
        nested + "SELECT order_id FROM payments_log WHERE order_id IN (SELECT id FROM ledger)))"
    )
    assert sql(three_deep)
    four_deep = nested + (
        "SELECT order_id FROM payments_log WHERE order_id IN (SELECT id FROM ledger WHERE id IN "
        "(SELECT user_id FROM orders))))"
    )
    assert code(four_deep) is RefusalCode.TOO_COMPLEX


def test_a_shadowing_alias_is_the_column_in_where_group_by_and_having() -> None:
    assert sql(
        "SELECT COALESCE(status, 'unknown') AS status, COUNT(*) AS n FROM orders "
        "WHERE status <> 'paid' GROUP BY status HAVING status IS NOT NULL"
    ) == (
        "SELECT COALESCE(`orders`.`status`, 'unknown') AS `status`, COUNT(*) AS `n` "
        "FROM `orders` WHERE `orders`.`status` <> 'paid' GROUP BY `orders`.`status` "
        "HAVING NOT `orders`.`status` IS NULL LIMIT 201"
    )


def test_a_shadowing_alias_is_the_alias_as_a_bare_order_by_item_written_as_its_position() -> None:
    assert sql("SELECT id, UPPER(status) AS status FROM orders ORDER BY status DESC") == (
        "SELECT `id`, UPPER(`orders`.`status`) AS `status` FROM `orders` ORDER BY 2 DESC LIMIT 201"
    )
    assert sql("SELECT id, UPPER(status) AS status FROM orders ORDER BY LOWER(status)") == (
        "SELECT `id`, UPPER(`orders`.`status`) AS `status` FROM `orders` "
        "ORDER BY LOWER(`orders`.`status`) LIMIT 201"
    )


def test_an_alias_that_does_not_shadow_is_left_as_written() -> None:
    assert sql("SELECT status, COUNT(*) AS n FROM orders GROUP BY status ORDER BY n") == (
        "SELECT `status`, COUNT(*) AS `n` FROM `orders` GROUP BY `status` ORDER BY `n` LIMIT 201"
    )


def test_a_shadowing_alias_over_a_sensitive_column_keeps_the_secret_out_of_ordering() -> None:
    assert code("SELECT api_token AS name FROM users ORDER BY name") is (
        RefusalCode.SENSITIVE_COLUMN_USE
    )
    plan = validate_sql(POLICY, "SELECT api_token AS name FROM users", CORPUS_NOW).unwrap()
    assert [column.sensitive for column in plan.output_columns] == [True]
