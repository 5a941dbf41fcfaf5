"""Rules between the parts of one SELECT: sensitive slots, shadowing aliases, related joins.

* a sensitive column may stand only as a bare item (optionally aliased) of the outermost
  SELECT list, and only when that SELECT has no DISTINCT, GROUP BY, HAVING, aggregate or
  window;
* an alias that takes the name of a column is the alias only as a bare ORDER BY item (written
  as its position), the column everywhere else (written qualified);
* every JOIN relates rows: an equality between a column of the joined source and a column of
  a source before it, as one of the ON condition's top-level AND terms.
"""

from __future__ import annotations

from sqlglot import exp

from factledger.domain.sql.grammar import AGGREGATE_TYPES
from factledger.domain.sql.refusal import RefusalCode
from factledger.domain.sql.scopes import QueryScope, Refused

__all__ = [
    "alias_position",
    "bare_column",
    "note_shadowing",
    "require_relation",
    "sensitive_slots",
]


def sensitive_slots(node: exp.Select, projections: list[exp.Expr]) -> set[int]:
    """Ids of the Column nodes that may name a sensitive column in this SELECT."""
    if node.args.get("distinct") is not None or node.args.get("group") is not None:
        return set()
    if node.args.get("having") is not None:
        return set()
    for item in projections:
        if item.find(*AGGREGATE_TYPES) is not None:
            return set()
    slots: set[int] = set()
    for item in projections:
        bare = item.this if isinstance(item, exp.Alias) else item
        if isinstance(bare, exp.Column):
            slots.add(id(bare))
    return slots


def note_shadowing(item: exp.Expr, position: int, scope: QueryScope) -> None:
    """Remember an alias that takes the name of a column of this SELECT's sources."""
    if not isinstance(item, exp.Alias):
        return
    lowered = item.alias.lower()
    bare = item.this
    if isinstance(bare, exp.Column) and bare.name.lower() == lowered:
        return  # ``status AS status``: the alias is the column
    if not any(lowered in source.columns for source in scope.sources.values()):
        return
    shared = lowered in scope.shadowing or scope.output_names.get(lowered, 0) > 1
    scope.shadowing[lowered] = 0 if shared else position


def alias_position(target: exp.Expr, scope: QueryScope) -> exp.Expr:
    """A bare ORDER BY name that is a shadowing alias, written as the alias's position."""
    if not isinstance(target, exp.Column) or target.args.get("table") is not None:
        return target
    position = scope.shadowing.get(target.name.lower())
    if position is None:
        return target
    if position == 0:
        raise Refused(RefusalCode.AMBIGUOUS_COLUMN)
    literal = exp.Literal.number(position)
    target.replace(literal)
    return literal


def require_relation(
    condition: exp.Expr, scope: QueryScope, joined: str, before: frozenset[str]
) -> None:
    """The ON condition must equate a column of the joined source with one of a source
    joined before it, as one of its top-level AND terms: ``ON 1 = 1``, ``ON a.id = a.id``,
    ``ON a.id <> b.id`` or ``ON b.id >= 0`` relate nothing and multiply rows."""
    terms: list[exp.Expr] = [condition]
    while terms:
        term = terms.pop()
        while isinstance(term, exp.Paren):
            term = term.this
        if isinstance(term, exp.And):
            terms.extend((term.this, term.expression))
            continue
        if not isinstance(term, exp.EQ | exp.NullSafeEQ):
            continue
        left, right = bare_column(term.this), bare_column(term.expression)
        if left is None or right is None:
            continue
        sides = {scope.resolved.get(id(left)), scope.resolved.get(id(right))}
        if joined in sides and sides - {joined} and (sides - {joined}) <= before:
            return
    raise Refused(RefusalCode.UNRELATED_JOIN)


def bare_column(node: exp.Expr) -> exp.Column | None:
    while isinstance(node, exp.Paren):
        node = node.this
    return node if isinstance(node, exp.Column) else None
