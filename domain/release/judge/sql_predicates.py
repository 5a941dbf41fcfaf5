"""The predicates of the SQL a result came from (its scope's executed, regenerated SQL).

Each conjunct of the WHERE and HAVING clauses becomes one ``Predicate``: its column, its
operator and its literal values. A disjunction stays one predicate (any of its values).
Grouping columns are kept too: a row's cells in them label what the row counts.
"""

from __future__ import annotations

from functools import lru_cache

import sqlglot
from attrs import frozen
from sqlglot import exp
from sqlglot.errors import SqlglotError

__all__ = ["Predicate", "QueryShape", "query_shape"]

_OPS: dict[type[exp.Expression], str] = {
    exp.EQ: "=",
    exp.NEQ: "!=",
    exp.GT: ">",
    exp.GTE: ">=",
    exp.LT: "<",
    exp.LTE: "<=",
    exp.Like: "like",
    exp.ILike: "like",
    exp.In: "in",
}
_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">="}


@frozen
class Predicate:
    """One condition the rows had to meet."""

    column: str
    op: str
    """``=``, ``!=``, ``>``, ``>=``, ``<``, ``<=``, ``like``, ``in``, ``or`` or ``other``."""
    values: tuple[str, ...]
    """Its literal values, as written."""
    strings: bool
    """True when the values are string literals."""
    aggregate: bool = False
    """True when it tests an aggregate (``HAVING COUNT(id) > 0``): a bound on the result,
    not on the rows searched."""


@frozen
class QueryShape:
    """What a query filtered on and grouped by."""

    predicates: tuple[Predicate, ...]
    group_by: tuple[str, ...]
    sources: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each output column named by an alias with the columns its expression reads
    (``SUM(errors_5xx) AS errors``: ``("errors", ("errors_5xx",))``)."""


def _conjuncts(node: exp.Expression) -> list[exp.Expression]:
    if isinstance(node, exp.And):
        return _conjuncts(node.args["this"]) + _conjuncts(node.args["expression"])
    if isinstance(node, exp.Paren):
        return _conjuncts(node.args["this"])
    return [node]


def _predicate(node: exp.Expression) -> Predicate:
    literals = list(node.find_all(exp.Literal))
    values = tuple(str(lit.this) for lit in literals)
    strings = any(lit.is_string for lit in literals)
    columns = [col.name for col in node.find_all(exp.Column)]
    column = columns[0] if columns else ""
    negated = isinstance(node, exp.Not)
    inner = node.this if negated else node
    op = "other"
    for kind, name in _OPS.items():
        if type(inner) is kind:
            op = name
    if isinstance(inner, exp.Or):
        op = "or"
    if isinstance(inner, exp.Between):
        op = "between"
    if op in _FLIP and isinstance(inner.args.get("this"), exp.Literal):
        op = _FLIP[op]
    if negated:
        op = "not " + op
    aggregate = node.find(exp.AggFunc) is not None
    return Predicate(column, op, values, strings, aggregate)


@lru_cache(maxsize=1024)
def query_shape(sql: str, dialect: str | None) -> QueryShape | None:
    """The predicates and grouping of ``sql``; None when it cannot be read."""
    try:
        tree = sqlglot.parse_one(sql, read=dialect or None)
    except (SqlglotError, ValueError):
        return None
    predicates: list[Predicate] = []
    for clause in (tree.find(exp.Where), tree.find(exp.Having)):
        if clause is not None:
            predicates += [_predicate(node) for node in _conjuncts(clause.this)]
    group = tree.find(exp.Group)
    group_by = tuple(col.name for col in group.find_all(exp.Column)) if group else ()
    return QueryShape(tuple(predicates), group_by, _sources(tree))


def _sources(tree: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The aliased output columns of a SELECT with the columns each reads."""
    if not isinstance(tree, exp.Select):
        return ()
    found: list[tuple[str, tuple[str, ...]]] = []
    for select in tree.selects:
        if isinstance(select, exp.Alias):
            read = tuple(dict.fromkeys(col.name for col in select.find_all(exp.Column)))
            found.append((select.alias, tuple(name for name in read if name != select.alias)))
    return tuple(found)
