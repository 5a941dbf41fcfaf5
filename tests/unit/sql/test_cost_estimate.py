"""The cost estimator reads each engine's EXPLAIN the way the engine means it."""

from __future__ import annotations

import pytest

from factledger.domain.sql.cost import (
    CostEstimate,
    CostLimits,
    explain_mysql,
    explain_postgres,
    explain_sqlite,
)


def _table(name: str, rows: int, filtered: float = 100, **extra: object) -> dict[str, object]:
    return {"table": {"table_name": name, "rows": rows, "filtered": filtered, **extra}}


def test_a_mariadb_nested_loop_multiplies_the_rows_before_each_table() -> None:
    document = {
        "query_block": {
            "select_id": 1,
            "nested_loop": [
                _table("a", 100_000),
                {"block-nl-join": _table("b", 100_000), "buffer_type": "flat"},
            ],
        }
    }
    estimate = explain_mysql(document)
    assert estimate == CostEstimate(100_000 + 100_000 * 100_000, None)


def test_a_key_lookup_join_costs_one_row_per_outer_row() -> None:
    document = {
        "query_block": {
            "nested_loop": [
                _table("a", 100_000, 10),
                {"table": {"table_name": "b", "access_type": "eq_ref", "rows": 1}},
            ]
        }
    }
    assert explain_mysql(document) == CostEstimate(100_000 + 10_000, None)


def test_a_correlated_subquery_runs_once_per_outer_row_an_uncorrelated_one_once() -> None:
    inner = {"query_block": {"nested_loop": [_table("b", 1_000)]}}
    correlated = {"query_block": {"nested_loop": [_table("a", 500)], "subqueries": [
        {"expression_cache": inner}]}}  # fmt: skip
    uncorrelated = {"query_block": {"nested_loop": [_table("a", 500)], "subqueries": [inner]}}
    mysql_dependent = {"query_block": {"nested_loop": [_table("a", 500)], "subqueries": [
        {"dependent": True, **inner}]}}  # fmt: skip
    assert explain_mysql(correlated) == CostEstimate(500 + 500 * 1_000)
    assert explain_mysql(uncorrelated) == CostEstimate(500 + 1_000)
    assert explain_mysql(mysql_dependent) == CostEstimate(500 + 500 * 1_000)


def test_sorting_wrappers_materialized_tables_unions_and_cost_are_read() -> None:
    derived = {"query_block": {"filesort": {"temporary_table": {"nested_loop": [
        _table("big", 2_000)]}}}}  # fmt: skip
    document = {
        "query_block": {
            "cost_info": {"query_cost": "1234.5"},
            "nested_loop": [
                {"read_sorted_file": {"filesort": _table("a", 10)}},
                _table("<derived2>", 5, materialized=derived),
            ],
        }
    }
    assert explain_mysql(document) == CostEstimate(10 + 2_000 + 10 * 5, 1234.5)
    union = {"query_block": {"union_result": {"query_specifications": [
        {"query_block": {"nested_loop": [_table("a", 7)]}},
        {"query_block": {"nested_loop": [_table("b", 9)]}}]}}}  # fmt: skip
    assert explain_mysql(union) == CostEstimate(16)
    assert explain_mysql({"query_block": {"table": {"message": "No tables used"}}}) == (
        CostEstimate(1)
    )


@pytest.mark.parametrize(
    "document",
    [None, [], {"query_block": []}, {"query_block": {"nested_loop": [{"x": 1, "y": 2}]}},
     {"query_block": {"nested_loop": [{"table": {"rows": "many"}}]}}],
)  # fmt: skip
def test_an_unreadable_mysql_document_is_none(document: object) -> None:
    assert explain_mysql(document) is None


def test_postgresql_nested_loops_and_subplans_run_per_outer_row() -> None:
    nested = [{"Plan": {"Node Type": "Nested Loop", "Plan Rows": 1000, "Total Cost": 99.0,
        "Plans": [
            {"Node Type": "Seq Scan", "Parent Relationship": "Outer", "Plan Rows": 1000},
            {"Node Type": "Index Scan", "Parent Relationship": "Inner", "Plan Rows": 1},
        ]}}]  # fmt: skip
    assert explain_postgres(nested) == CostEstimate(1000 + 1000 + 1 * 1000, 99.0)
    subplan = [{"Plan": {"Node Type": "Seq Scan", "Plan Rows": 100, "Total Cost": 5.0,
        "Plans": [{"Node Type": "Aggregate", "Parent Relationship": "SubPlan", "Plan Rows": 1,
                   "Plans": [{"Node Type": "Seq Scan", "Parent Relationship": "Outer",
                              "Plan Rows": 50}]}]}}]  # fmt: skip
    assert explain_postgres(subplan) == CostEstimate(100 + (1 + 50) * 100, 5.0)
    hashed = [{"Plan": {"Node Type": "Hash Join", "Plan Rows": 10, "Total Cost": 1.0, "Plans": [
        {"Node Type": "Seq Scan", "Parent Relationship": "Outer", "Plan Rows": 1000},
        {"Node Type": "Hash", "Parent Relationship": "Inner", "Plan Rows": 1000}]}}]  # fmt: skip
    assert explain_postgres(hashed) == CostEstimate(10 + 1000 + 1000, 1.0)


@pytest.mark.parametrize("document", [None, {}, [{}], [{"Plan": {"Plan Rows": "x"}}], [1, 2]])
def test_an_unreadable_postgresql_document_is_none(document: object) -> None:
    assert explain_postgres(document) is None


def test_sqlite_scans_nest_and_key_searches_cost_one_row() -> None:
    sizes = {"big": 100_000, "a": 100_000, "b": 100_000}
    nested = [(4, 0, "SCAN a"), (16, 0, "SEARCH b USING AUTOMATIC COVERING INDEX (bucket=?)")]
    assert explain_sqlite(nested, sizes) == CostEstimate(100_000 + 100_000 * 10)
    keyed = [(3, 0, "SCAN a"), (7, 0, "SEARCH b USING INTEGER PRIMARY KEY (rowid=?)")]
    assert explain_sqlite(keyed, sizes) == CostEstimate(200_000)
    correlated = [(2, 0, "SCAN a"), (6, 0, "CORRELATED SCALAR SUBQUERY 1"), (11, 6, "SCAN b")]
    assert explain_sqlite(correlated, sizes) == CostEstimate(100_000 + 100_000 * 100_000)
    once = [(2, 0, "SCAN big"), (7, 0, "SCALAR SUBQUERY 1"), (12, 7, "SCAN big")]
    assert explain_sqlite(once, sizes) == CostEstimate(200_000)
    unknown = [(2, 0, "SCAN x")]
    assert explain_sqlite(unknown, sizes) == CostEstimate(100_000)


def test_limits_refuse_above_rows_or_cost() -> None:
    limits = CostLimits(max_estimated_rows=1000, max_estimated_cost=50.0)
    assert not CostEstimate(1000, 50.0).exceeds(limits)
    assert CostEstimate(1001, None).exceeds(limits)
    assert CostEstimate(10, 51.0).exceeds(limits)
    assert not CostEstimate(10, 51.0).exceeds(CostLimits(max_estimated_rows=1000))
    assert CostEstimate(float("inf")).exceeds(limits)
