"""The cost gate: how much work the engine's own EXPLAIN expects a plan to do.

The executor asks the engine to EXPLAIN the SQL it is about to run (nothing is read) and
hands the answer here; a plan whose estimate is above the datasource's limits is refused with
COST_TOO_HIGH before any row is read. The estimate is of rows *examined*, not returned: a
nested loop examines, for each row the loops before it produce, the rows of its own scan; a
correlated subquery runs once per row of the query around it.

* MySQL / MariaDB ``EXPLAIN FORMAT=JSON``: ``query_block`` → ``nested_loop`` of ``table``
  entries (``rows`` or ``rows_examined_per_scan``, ``filtered``), materialized derived tables
  and subqueries (``expression_cache`` or ``dependent`` mark a correlated one), unions;
  cost is ``cost_info.query_cost`` (MySQL) or ``cost`` (MariaDB 11) when the server gives one.
* PostgreSQL ``EXPLAIN (FORMAT JSON)``: each node's ``Plan Rows``; the inner side of a
  Nested Loop and a SubPlan run once per outer row; cost is the root's ``Total Cost``.
* SQLite ``EXPLAIN QUERY PLAN``: a SCAN examines the table's rows, a SEARCH on a key one
  row, on another index ten (SQLite's own default guess); loops at one level nest, a
  correlated subquery runs once per outer row. SQLite gives no cost.

Pure: documents in, numbers out; an answer these rules cannot read is ``None`` (the executor
then refuses to run the plan: it fails closed).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from attrs import frozen

from factledger.domain.json_reading import ShapeMismatch, as_dict, as_list

__all__ = [
    "CostEstimate",
    "CostLimits",
    "explain_mysql",
    "explain_postgres",
    "explain_sqlite",
]

_LOOP_WRAPPERS = (
    "filesort",
    "temporary_table",
    "ordering_operation",
    "grouping_operation",
    "duplicates_removal",
    "read_sorted_file",
    "window_functions_computation",
    "having_condition_wrapper",
)
_SEARCH_KEY = re.compile(r"USING (?:INTEGER PRIMARY KEY|PRIMARY KEY) \((?:rowid|\w+)=\?\)")
_NAME = re.compile(r"^(?:SCAN|SEARCH) (\S+)")
_DEFAULT_INDEX_ROWS = 10.0


@frozen
class CostLimits:
    """A datasource's cost gate."""

    max_estimated_rows: int = 1_000_000
    """Rows the engine may expect to examine."""
    max_estimated_cost: float | None = None
    """The engine's own cost units; None means not checked."""


@frozen
class CostEstimate:
    """What the engine expects a plan to cost."""

    rows: float
    """Rows examined, summed over the plan's loops and subqueries."""
    cost: float | None = None
    """The engine's own cost figure, when it gives one."""

    def exceeds(self, limits: CostLimits) -> bool:
        """True when the plan must not run under ``limits``."""
        if not math.isfinite(self.rows) or self.rows > limits.max_estimated_rows:
            return True
        cap = limits.max_estimated_cost
        return cap is not None and self.cost is not None and self.cost > cap


# -- MySQL and MariaDB ----------------------------------------------------------------------


def explain_mysql(document: object) -> CostEstimate | None:
    """The estimate of a MySQL/MariaDB ``EXPLAIN FORMAT=JSON`` document, or None."""
    try:
        block = as_dict(as_dict(document).get("query_block"))
        work, _ = _mysql_block(block)
        return CostEstimate(work, _mysql_cost(block))
    except ShapeMismatch:
        return None


def _mysql_cost(block: dict[str, object]) -> float | None:
    info = block.get("cost_info")
    if isinstance(info, dict) and "query_cost" in info:
        return _number(info["query_cost"])
    if "cost" in block:
        return _number(block["cost"])
    return None


def _mysql_block(block: dict[str, object]) -> tuple[float, float]:
    """(rows examined, rows produced) of one ``query_block``."""
    union = block.get("union_result")
    if isinstance(union, dict):
        work = produced = 0.0
        for spec in as_list(union.get("query_specifications", [])):
            part_work, part_rows = _mysql_block(as_dict(as_dict(spec).get("query_block")))
            work += part_work
            produced += part_rows
        return work, produced
    work, prefix = 0.0, 1.0
    for entry in _loop(block):
        table = _table_of(entry)
        rows = _number(table.get("rows", table.get("rows_examined_per_scan", 1)))
        filtered = _number(table.get("filtered", 100)) / 100
        work += prefix * max(rows, 1.0)
        materialized = table.get("materialized")
        if isinstance(materialized, dict):
            work += _mysql_block(as_dict(materialized.get("query_block")))[0]
        prefix *= max(rows * filtered, 1.0)
    for subquery in as_list(block.get("subqueries", [])):
        inner, correlated = _subquery(as_dict(subquery))
        work += _mysql_block(inner)[0] * (prefix if correlated else 1.0)
    return work, prefix


def _loop(block: dict[str, object]) -> list[dict[str, object]]:
    """The entries of a block's nested loop, through sorting and grouping wrappers."""
    current = block
    for _ in range(16):
        if "nested_loop" in current:
            return [as_dict(entry) for entry in as_list(current["nested_loop"])]
        if "table" in current:
            return [current]
        wrapped = next((current[key] for key in _LOOP_WRAPPERS if key in current), None)
        if wrapped is None:
            return []
        current = as_dict(wrapped)
    raise ShapeMismatch


def _table_of(entry: dict[str, object]) -> dict[str, object]:
    """The ``table`` of a nested-loop entry, through ``block-nl-join``, ``read_sorted_file``,
    ``filesort`` and the like."""
    current = entry
    for _ in range(8):
        if "table" in current:
            return as_dict(current["table"])
        wrapped = [value for value in current.values() if isinstance(value, dict)]
        if len(wrapped) != 1:
            raise ShapeMismatch
        current = wrapped[0]
    raise ShapeMismatch


def _subquery(entry: dict[str, object]) -> tuple[dict[str, object], bool]:
    """A subquery's block, and whether it runs once per outer row."""
    correlated = entry.get("dependent") is True
    for key in ("expression_cache", "materialization"):
        if key in entry:
            inner = as_dict(entry[key])
            correlated = correlated or key == "expression_cache"
            return as_dict(inner.get("query_block")), correlated
    return as_dict(entry.get("query_block")), correlated


# -- PostgreSQL -----------------------------------------------------------------------------


def explain_postgres(document: object) -> CostEstimate | None:
    """The estimate of a PostgreSQL ``EXPLAIN (FORMAT JSON)`` document, or None."""
    try:
        top = as_list(document)
        if len(top) != 1:
            raise ShapeMismatch
        root = as_dict(as_dict(top[0]).get("Plan"))
        return CostEstimate(_postgres_work(root, 0), _number(root.get("Total Cost")))
    except ShapeMismatch:
        return None


def _postgres_work(node: dict[str, object], depth: int) -> float:
    if depth > 64:
        raise ShapeMismatch
    rows = max(_number(node.get("Plan Rows", 1)), 1.0)
    children = [as_dict(child) for child in as_list(node.get("Plans", []))]
    nested = node.get("Node Type") == "Nested Loop"
    work = rows
    outer_rows = 1.0
    for child in children:
        relationship = child.get("Parent Relationship")
        child_work = _postgres_work(child, depth + 1)
        if relationship == "Outer":
            outer_rows = max(_number(child.get("Plan Rows", 1)), 1.0)
            work += child_work
        elif relationship == "Inner" and nested:
            work += child_work * outer_rows
        elif relationship == "SubPlan":
            work += child_work * rows
        else:
            work += child_work
    return work


# -- SQLite ---------------------------------------------------------------------------------


def explain_sqlite(
    steps: Sequence[tuple[int, int, str]], table_rows: Mapping[str, int]
) -> CostEstimate | None:
    """The estimate of SQLite ``EXPLAIN QUERY PLAN`` rows ``(id, parent, detail)``;
    ``table_rows`` gives the rows of each table (lower-case name) the plan may scan. A name
    that is not a known table (an alias, a materialized view) counts as the largest table."""
    children: dict[int, list[tuple[int, str]]] = {}
    for step_id, parent, detail in steps:
        children.setdefault(parent, []).append((step_id, detail))
    largest = float(max(table_rows.values(), default=1))
    try:
        return CostEstimate(_sqlite_level(children, 0, table_rows, largest, 0))
    except ShapeMismatch:
        return None


def _sqlite_level(
    children: Mapping[int, list[tuple[int, str]]],
    parent: int,
    table_rows: Mapping[str, int],
    largest: float,
    depth: int,
) -> float:
    if depth > 32:
        raise ShapeMismatch
    work, prefix = 0.0, 1.0
    for step_id, detail in children.get(parent, []):
        inner = _sqlite_level(children, step_id, table_rows, largest, depth + 1)
        if detail.startswith(("SCAN ", "SEARCH ")):
            rows = _sqlite_rows(detail, table_rows, largest)
            work += prefix * rows + inner
            prefix *= rows
        elif detail.startswith("CORRELATED "):
            work += inner * prefix
        else:
            work += inner
    return work


def _sqlite_rows(detail: str, table_rows: Mapping[str, int], largest: float) -> float:
    if detail.startswith("SEARCH "):
        if _SEARCH_KEY.search(detail):
            return 1.0
        if "=?" in detail:
            return _DEFAULT_INDEX_ROWS
    match = _NAME.match(detail)
    name = match.group(1).lower() if match else ""
    if name == "constant":
        return 1.0
    return float(table_rows.get(name, largest))


# -- shared ---------------------------------------------------------------------------------


def _number(value: object) -> float:
    if isinstance(value, bool):
        raise ShapeMismatch
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            raise ShapeMismatch from None
    raise ShapeMismatch
