"""The SQL validator: model text in, an approved ``QueryPlan`` or a refusal out.

The order of the checks is the point: the text is scanned, and its plain comments removed,
before any parser sees it (``prescan``); the current time is bound to the caller's instant
(``instant``); the tree is checked against an allowlist of node types before any name is
looked at (``shape``); names are resolved against the datasource's allowlist and every join
must relate rows (``resolution``); the outermost LIMIT is clamped; and the SQL to run is
generated from the tree and must be a fixed point (``render``). Pure: no I/O, no clock, no
randomness (the instant is an argument).
"""

from __future__ import annotations

from datetime import datetime

from returns.result import Failure, Result, Success
from sqlglot import exp

from factledger.domain.sql.instant import bind_current_time, normalize_timestamps
from factledger.domain.sql.plan import QueryPlan
from factledger.domain.sql.policy import SqlPolicy
from factledger.domain.sql.prescan import prescan
from factledger.domain.sql.refusal import RefusalCode, SqlRefusal
from factledger.domain.sql.render import parse_statement, regenerate, render_sql
from factledger.domain.sql.resolution import Resolution, resolve_names
from factledger.domain.sql.shape import check_shape

__all__ = ["SqlValidator", "validate_sql"]


class SqlValidator:
    """Checks queries against one datasource's policy."""

    def __init__(self, policy: SqlPolicy) -> None:
        self._policy = policy

    @property
    def policy(self) -> SqlPolicy:
        """The policy queries are checked against."""
        return self._policy

    def validate(self, text: str, now: datetime | None = None) -> Result[QueryPlan, SqlRefusal]:
        """An approved plan for ``text``, or the reason it is refused."""
        return validate_sql(self._policy, text, now)


def validate_sql(
    policy: SqlPolicy, text: str, now: datetime | None = None
) -> Result[QueryPlan, SqlRefusal]:
    """An approved plan for ``text`` under ``policy``, or the reason it is refused.

    ``now`` (timezone-aware) is the instant ``NOW()`` and its kin are bound to, as literals in
    the regenerated SQL. Without it (an offline check) they are kept as written, and
    ``QueryPlan.now`` is None; a SQLite datasource then refuses them
    (NONDETERMINISTIC_FUNCTION). The SQL tool always passes the call's start instant.
    """
    checked = _checked_tree(policy, text, now)
    if isinstance(checked, Failure):
        return Failure(checked.failure())
    tree, bound = checked.unwrap()
    resolution_result = resolve_names(tree, policy)
    if isinstance(resolution_result, Failure):
        return Failure(resolution_result.failure())
    resolution = resolution_result.unwrap()
    row_limit_result = _clamp_limit(tree, policy)
    if isinstance(row_limit_result, Failure):
        return Failure(row_limit_result.failure())
    row_limit = row_limit_result.unwrap()
    sql_result = regenerate(
        tree,
        policy.source_dialect,
        lambda reparsed: _same_plan(reparsed, policy, resolution, unbound_time=now is None),
    )
    if isinstance(sql_result, Failure):
        return Failure(sql_result.failure())
    rendered = render_sql(sql_result.unwrap(), policy.dialect)
    if isinstance(rendered, Failure):
        return Failure(rendered.failure())
    return Success(
        QueryPlan(
            datasource=policy.datasource,
            sql=rendered.unwrap(),
            tables=resolution.tables,
            columns=resolution.columns,
            output_columns=resolution.output_columns,
            row_limit=row_limit,
            dialect=policy.dialect,
            now=now if bound else None,
        )
    )


def _checked_tree(
    policy: SqlPolicy, text: str, now: datetime | None
) -> Result[tuple[exp.Select | exp.SetOperation, bool], SqlRefusal]:
    """The parsed query, its current time bound, once every node passed the allowlist."""
    limits = policy.limits
    dialect = policy.source_dialect
    statement_result = prescan(text, limits.max_length, limits.max_nesting, dialect)
    if isinstance(statement_result, Failure):
        return Failure(statement_result.failure())
    parsed_result = parse_statement(statement_result.unwrap(), dialect)
    if isinstance(parsed_result, Failure):
        return Failure(parsed_result.failure())
    tree = _unwrap(parsed_result.unwrap())
    if not isinstance(tree, exp.Select | exp.Union):
        return Failure(SqlRefusal(RefusalCode.NOT_A_SELECT))
    nodes = list(tree.walk())
    if dialect == "mysql":
        normalize_timestamps(nodes)
    refused_fetch = _fetch_as_limit(nodes)
    if refused_fetch is not None:
        return Failure(SqlRefusal(refused_fetch))
    bound = bind_current_time(tree, policy.dialect, now, policy.time_zone, nodes)
    if isinstance(bound, Failure):
        return Failure(bound.failure())
    refused = check_shape(tree, policy.dialect, limits, unbound_time=now is None)
    if refused is not None:
        return Failure(SqlRefusal(refused))
    return Success((tree, bound.unwrap()))


def _same_plan(
    reparsed: exp.Expr, policy: SqlPolicy, resolution: Resolution, *, unbound_time: bool
) -> bool:
    """True when the tree the regenerated text means passes every check again and reads and
    returns exactly what the checked tree does."""
    if check_shape(reparsed, policy.dialect, policy.limits, unbound_time=unbound_time):
        return False
    again = resolve_names(reparsed, policy)
    return isinstance(again, Success) and again.unwrap() == resolution


def _unwrap(tree: exp.Expr) -> exp.Expr:
    """``(SELECT …)`` at the top is the SELECT itself."""
    while isinstance(tree, exp.Subquery) and not any(
        value for key, value in tree.args.items() if key != "this"
    ):
        inner = tree.args.get("this")
        if not isinstance(inner, exp.Expr):
            return tree
        inner.pop()
        tree = inner
    return tree


def _fetch_as_limit(nodes: list[exp.Expr]) -> RefusalCode | None:
    """``FETCH FIRST n ROWS ONLY`` is ``LIMIT n``; any other FETCH is refused."""
    for fetch in [node for node in nodes if isinstance(node, exp.Fetch)]:
        options = fetch.args.get("limit_options")
        count = fetch.args.get("count")
        plain = options is None or not (
            options.args.get("percent") or options.args.get("with_ties")
        )
        if not (plain and isinstance(count, exp.Literal) and not count.is_string):
            return RefusalCode.BAD_LIMIT
        fetch.replace(exp.Limit(expression=exp.Literal.number(str(count.this))))
    return None


def _clamp_limit(tree: exp.Select | exp.SetOperation, policy: SqlPolicy) -> Result[int, SqlRefusal]:
    """Rows the caller may receive; the SQL's LIMIT becomes one more, to see if more exist."""
    limits = policy.limits
    requested = _integer(tree.args.get("limit"))
    offset = _integer(tree.args.get("offset"))
    if offset is not None and offset > limits.max_offset:
        return Failure(SqlRefusal(RefusalCode.BAD_LIMIT))
    row_limit = limits.max_rows if requested is None else min(requested, limits.max_rows)
    tree.set("limit", exp.Limit(expression=exp.Literal.number(row_limit + 1)))
    return Success(row_limit)


def _integer(clause: object) -> int | None:
    if not isinstance(clause, exp.Limit | exp.Offset):
        return None
    value = clause.args.get("expression")
    if isinstance(value, exp.Literal) and not value.is_string:
        text = value.args.get("this")
        if isinstance(text, str) and text.isdigit():
            return int(text)
    return None
