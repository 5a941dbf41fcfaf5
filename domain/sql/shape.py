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
    MYSQL_ONLY_NODES,
    UNIT_PARENTS,
    function_allowed,
)
from factledger.domain.sql.policy import SqlDialect, SqlLimits
from factledger.domain.sql.refusal import RefusalCode

__all__ = ["check_shape"]

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
"""What a table, column or alias name may look like: ASCII only, so no confusable passes."""
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
}
_NODE_CODES: dict[type[exp.Expr], RefusalCode] = {
    exp.Into: RefusalCode.INTO_CLAUSE,
    exp.Lock: RefusalCode.LOCKING_READ,
    exp.Parameter: RefusalCode.VARIABLE,
    exp.SessionParameter: RefusalCode.VARIABLE,
    exp.Placeholder: RefusalCode.VARIABLE,
    exp.PropertyEQ: RefusalCode.VARIABLE,
}
_JOIN_SIDES = frozenset({"", "LEFT", "RIGHT"})
_JOIN_KINDS = frozenset({"", "INNER", "OUTER"})
_QUERY_NODES = (exp.Subquery, exp.Exists, exp.CTE)


def check_shape(tree: exp.Expr, dialect: SqlDialect, limits: SqlLimits) -> RefusalCode | None:
    """None when every node is allowed and every limit holds, else the first refusal."""
    nodes = 0
    tables = 0
    joins = 0
    subqueries = 0
    stack: list[tuple[exp.Expr, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if nodes > limits.max_nodes or depth > limits.max_depth:
            return RefusalCode.TOO_COMPLEX
        refused = _check_node(node, dialect, limits)
        if refused is not None:
            return refused
        if isinstance(node, exp.Table):
            tables += 1
        elif isinstance(node, exp.Join):
            joins += 1
        elif isinstance(node, _QUERY_NODES):
            subqueries += 1
        if tables > limits.max_tables or joins > limits.max_joins:
            return RefusalCode.TOO_COMPLEX
        if subqueries > limits.max_subqueries:
            return RefusalCode.TOO_COMPLEX
        for value in node.args.values():
            if isinstance(value, exp.Expr):
                stack.append((value, depth + 1))
            elif isinstance(value, list):
                for item in value:
                    if not isinstance(item, exp.Expr):
                        return RefusalCode.FORBIDDEN_SYNTAX
                    stack.append((item, depth + 1))
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
    if dialect != "mysql" and _mysql_only(node):
        return RefusalCode.UNSUPPORTED_ON_DATASOURCE
    for key, value in node.args.items():
        if value is None or value is False or value == []:
            continue
        if key not in allowed_args:
            return _ARGUMENT_CODES.get(key, RefusalCode.FORBIDDEN_SYNTAX)
    return _check_allowed_node(node, limits)


def _mysql_only(node: exp.Expr) -> bool:
    if isinstance(node, MYSQL_ONLY_NODES):
        return True
    # GROUP_CONCAT(x ORDER BY y) needs SQLite 3.44; older libraries reject it.
    return isinstance(node, exp.Order) and isinstance(node.parent, exp.GroupConcat)


def _check_allowed_node(node: exp.Expr, limits: SqlLimits) -> RefusalCode | None:
    if isinstance(node, exp.Star):
        parent = node.parent
        if isinstance(parent, exp.Count) and parent.args.get("this") is node:
            return None
        return RefusalCode.WILDCARD
    if isinstance(node, exp.Identifier):
        name = node.args.get("this")
        if not isinstance(name, str) or IDENTIFIER.fullmatch(name) is None:
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
        return None if node.this in ALLOWED_DATA_TYPES else RefusalCode.FORBIDDEN_SYNTAX
    if isinstance(node, exp.DataTypeParam):
        value = node.args.get("this")
        if not (isinstance(value, exp.Literal) and not value.is_string):
            return RefusalCode.FORBIDDEN_SYNTAX
        return None
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
