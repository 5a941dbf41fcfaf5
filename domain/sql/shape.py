"""The allowlist walk: every node, every argument, every function, every size limit.

One iterative pass over the parsed tree (no recursion, so a deep tree cannot crash it)
checks the node types and arguments against ``grammar``, the functions against the
datasource's dialect, the places a wildcard or a unit word may stand, literal sizes, and
counts what the complexity limits bound.
"""

from __future__ import annotations

import math
import re

from sqlglot import exp

from factledger.domain.sql.grammar import (
    ALLOWED_DATA_TYPES,
    ALLOWED_NODE_ARGS,
    INTERVAL_UNITS,
    POSTGRES_ONLY_NODES,
    SQLITE_UNSUPPORTED_NODES,
    UNIT_PARENTS,
    function_allowed,
)
from factledger.domain.sql.instant import is_current_time, valid_precision
from factledger.domain.sql.policy import SqlDialect, SqlLimits
from factledger.domain.sql.refusal import RefusalCode

__all__ = ["check_shape"]

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
"""What a table, column or alias name may look like: ASCII only, so no confusable passes."""
OUTPUT_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_ .:/%#()-]{0,63}")
"""What a select-list alias may look like (``AS "failed orders"``): printable ASCII, no quote."""
_NUMBER = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_INTEGER = re.compile(r"\d{1,20}")

_ARGUMENT_CODES = {
    "into": RefusalCode.INTO_CLAUSE,
    "locks": RefusalCode.LOCKING_READ,
    "hint": RefusalCode.OPTIMIZER_HINT,
    "operation_modifiers": RefusalCode.FORBIDDEN_SYNTAX,
    "using": RefusalCode.UNSUPPORTED_JOIN,
    "method": RefusalCode.UNSUPPORTED_JOIN,
    "db": RefusalCode.FOREIGN_SCHEMA,
    "catalog": RefusalCode.FOREIGN_SCHEMA,
    "recursive": RefusalCode.RECURSIVE_CTE,
}
_NODE_CODES: dict[type[exp.Expr], RefusalCode] = {
    exp.Into: RefusalCode.INTO_CLAUSE,
    exp.Lock: RefusalCode.LOCKING_READ,
    exp.Parameter: RefusalCode.VARIABLE,
    exp.SessionParameter: RefusalCode.VARIABLE,
    exp.Placeholder: RefusalCode.VARIABLE,
    exp.PropertyEQ: RefusalCode.VARIABLE,
}
FORBIDDEN = RefusalCode.FORBIDDEN_SYNTAX
_JOIN_SIDES = frozenset({"", "LEFT", "RIGHT"})
_JOIN_KINDS = frozenset({"", "INNER", "OUTER"})
_QUERY_NODES = (exp.Subquery, exp.Exists, exp.CTE)


class _Counts:
    """What the complexity limits bound, counted over one walk."""

    def __init__(self, limits: SqlLimits) -> None:
        self.limits = limits
        self.nodes = 0
        self.tables = 0
        self.joins = 0
        self.subqueries = 0
        self.per_table: dict[str, int] = {}

    def add(self, node: exp.Expr, depth: int, query_depth: int) -> bool:
        """Count ``node``; False once a limit is exceeded."""
        limits = self.limits
        self.nodes += 1
        if self.nodes > limits.max_nodes or depth > limits.max_depth:
            return False
        if query_depth - 1 > limits.max_subquery_depth:
            return False
        if isinstance(node, exp.Table):
            self.tables += 1
            name = node.name.lower()
            self.per_table[name] = self.per_table.get(name, 0) + 1
            if self.per_table[name] > limits.max_table_repeats:
                return False
        elif isinstance(node, exp.Join):
            self.joins += 1
        elif isinstance(node, _QUERY_NODES):
            self.subqueries += 1
        return (
            self.tables <= limits.max_tables
            and self.joins <= limits.max_joins
            and self.subqueries <= limits.max_subqueries
        )


def check_shape(
    tree: exp.Expr, dialect: SqlDialect, limits: SqlLimits, *, unbound_time: bool = False
) -> RefusalCode | None:
    """None when every node is allowed and every limit holds, else the first refusal.

    Besides sizes, it bounds how deep subqueries nest and how often one table is named (a
    chain of self-joins)."""
    counts = _Counts(limits)
    keep_time = unbound_time and dialect != "sqlite"
    stack: list[tuple[exp.Expr, int, int]] = [(tree, 1, 0)]
    while stack:
        node, depth, query_depth = stack.pop()
        if isinstance(node, exp.Select):
            query_depth += 1
        if not counts.add(node, depth, query_depth):
            return RefusalCode.TOO_COMPLEX
        if keep_time and is_current_time(node, dialect):
            if not valid_precision(node):
                return RefusalCode.FORBIDDEN_FUNCTION
            continue  # an unbound NOW() of an offline check; its one argument is a precision
        refused = _check_node(node, dialect, limits)
        if refused is not None:
            return refused
        for value in node.args.values():
            if isinstance(value, exp.Expr):
                stack.append((value, depth + 1, query_depth))
            elif isinstance(value, list):
                for item in value:
                    if not isinstance(item, exp.Expr):
                        return RefusalCode.FORBIDDEN_SYNTAX
                    stack.append((item, depth + 1, query_depth))
    return None


def _check_node(node: exp.Expr, dialect: SqlDialect, limits: SqlLimits) -> RefusalCode | None:
    if node.comments:
        return RefusalCode.COMMENT
    node_type = type(node)
    allowed_args = ALLOWED_NODE_ARGS.get(node_type)
    if allowed_args is None:
        if isinstance(node, exp.Func):
            return function_allowed(node, dialect)
        return _NODE_CODES.get(node_type, RefusalCode.FORBIDDEN_SYNTAX)
    if _unsupported_on(node, dialect):
        return RefusalCode.UNSUPPORTED_ON_DATASOURCE
    for key, value in node.args.items():
        if value is None or value is False or value == []:
            continue
        if key not in allowed_args:
            return _ARGUMENT_CODES.get(key, RefusalCode.FORBIDDEN_SYNTAX)
    return _check_allowed_node(node, dialect, limits)


def _unsupported_on(node: exp.Expr, dialect: SqlDialect) -> bool:
    if dialect != "postgres" and isinstance(node, POSTGRES_ONLY_NODES):
        return True
    if dialect != "sqlite":
        return False
    if isinstance(node, SQLITE_UNSUPPORTED_NODES):
        return True
    # GROUP_CONCAT(x ORDER BY y) needs SQLite 3.44; older libraries reject it.
    return isinstance(node, exp.Order) and isinstance(node.parent, exp.GroupConcat)


def _check_allowed_node(
    node: exp.Expr, dialect: SqlDialect, limits: SqlLimits
) -> RefusalCode | None:
    if isinstance(node, exp.Star):
        parent = node.parent
        if isinstance(parent, exp.Count) and parent.args.get("this") is node:
            return None
        return RefusalCode.WILDCARD
    if isinstance(node, exp.Identifier):
        name = node.args.get("this")
        pattern = OUTPUT_NAME if isinstance(node.parent, exp.Alias) else IDENTIFIER
        if not isinstance(name, str) or pattern.fullmatch(name) is None:
            return RefusalCode.BAD_IDENTIFIER
        return None
    if isinstance(node, exp.Literal):
        return _check_literal(node, limits)
    if isinstance(node, exp.Var):
        return _check_unit(node)
    if isinstance(node, exp.Join):
        return _check_join(node)
    if isinstance(node, exp.In):
        if len(node.args.get("expressions") or ()) > limits.max_in_list:
            return RefusalCode.IN_LIST_TOO_LONG
        return None
    if isinstance(node, exp.Select):
        if len(node.args.get("expressions") or ()) > limits.max_projections:
            return RefusalCode.TOO_COMPLEX
        return None
    if isinstance(node, exp.DataType):
        if not isinstance(node.parent, exp.Cast | exp.DataType):
            return RefusalCode.FORBIDDEN_SYNTAX
        allowed = ALLOWED_DATA_TYPES[dialect]
        return None if node.this in allowed else RefusalCode.FORBIDDEN_SYNTAX
    if isinstance(node, exp.DataTypeParam):
        value = node.args.get("this")
        if not (isinstance(value, exp.Literal) and not value.is_string):
            return RefusalCode.FORBIDDEN_SYNTAX
        return None
    if isinstance(node, exp.AtTimeZone):
        zone = node.args.get("zone")
        return None if isinstance(zone, exp.Literal) and zone.is_string else FORBIDDEN
    if isinstance(node, exp.Limit | exp.Offset):
        value = node.args.get("expression")
        if not isinstance(value, exp.Literal) or value.is_string:
            return RefusalCode.BAD_LIMIT
        text = value.args.get("this")
        if not isinstance(text, str) or _INTEGER.fullmatch(text) is None:
            return RefusalCode.BAD_LIMIT
        return None
    if isinstance(node, exp.WindowSpec):
        return _check_window_spec(node)
    return None


def _check_literal(node: exp.Literal, limits: SqlLimits) -> RefusalCode | None:
    text = node.args.get("this")
    if isinstance(text, int) and not isinstance(text, bool) and not node.is_string:
        text = str(text)
    if not isinstance(text, str):
        return RefusalCode.FORBIDDEN_SYNTAX
    if len(text) > limits.max_literal_length:
        return RefusalCode.LITERAL_TOO_LONG
    if node.is_string:
        return None
    if _NUMBER.fullmatch(text) is None or not math.isfinite(float(text)):
        return RefusalCode.FORBIDDEN_SYNTAX
    return None


def _check_unit(node: exp.Var) -> RefusalCode | None:
    parent = node.parent
    if isinstance(parent, exp.Parameter | exp.SessionParameter):
        return RefusalCode.VARIABLE
    if not isinstance(parent, UNIT_PARENTS):
        return RefusalCode.FORBIDDEN_SYNTAX
    expected_key = "this" if isinstance(parent, exp.Extract) else "unit"
    if node.arg_key != expected_key:
        return RefusalCode.FORBIDDEN_SYNTAX
    name = node.args.get("this")
    if not isinstance(name, str) or name.upper() not in INTERVAL_UNITS:
        return RefusalCode.FORBIDDEN_SYNTAX
    return None


def _check_join(node: exp.Join) -> RefusalCode | None:
    side = node.args.get("side") or ""
    kind = node.args.get("kind") or ""
    if not isinstance(side, str) or not isinstance(kind, str):
        return RefusalCode.UNSUPPORTED_JOIN
    if side.upper() not in _JOIN_SIDES or kind.upper() not in _JOIN_KINDS:
        return RefusalCode.UNSUPPORTED_JOIN
    if node.args.get("on") is None:
        return RefusalCode.UNSUPPORTED_JOIN
    return None


_FRAME_WORDS = frozenset({"ROWS", "RANGE", "UNBOUNDED", "PRECEDING", "FOLLOWING", "CURRENT ROW"})


def _check_window_spec(node: exp.WindowSpec) -> RefusalCode | None:
    for key in ("kind", "start", "start_side", "end", "end_side"):
        value = node.args.get(key)
        if value is None:
            continue
        if isinstance(value, str):
            if value.upper() not in _FRAME_WORDS:
                return RefusalCode.FORBIDDEN_SYNTAX
        elif not (isinstance(value, exp.Literal) and not value.is_string):
            return RefusalCode.FORBIDDEN_SYNTAX
    return None
