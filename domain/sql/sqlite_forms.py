"""MySQL date functions written the way SQLite computes them.

A SQLite datasource runs the MySQL-syntax plan transpiled by sqlglot, which leaves several
date functions as names SQLite does not have (``HOUR``, ``TIMESTAMPDIFF``) or turns them into
something else (``DATE_ADD`` into ``DATE(…)``, which drops the time). Before the SQLite text
is generated, these are rewritten in SQLite's own terms, on the text form SQLite stores
dates in (``YYYY-MM-DD HH:MM:SS``):

* ``HOUR(x)``, ``MINUTE``, ``SECOND``, ``YEAR``, ``MONTH``, ``DAY`` / ``DAYOFMONTH``,
  ``DAYOFYEAR``, ``DAYOFWEEK`` (1 = Sunday) and ``EXTRACT(unit FROM x)`` for those units →
  ``CAST(STRFTIME('%H', x) AS INTEGER)`` and the like;
* ``UNIX_TIMESTAMP(x)`` → ``CAST(STRFTIME('%s', x) AS INTEGER)``;
* ``TIMESTAMPDIFF(SECOND | MINUTE | HOUR | DAY | WEEK, a, b)`` → the difference of the two
  epoch seconds, divided and truncated toward zero, as MySQL does;
* ``DATE_ADD`` / ``DATE_SUB`` / ``x ± INTERVAL n unit`` with a constant count of SECOND,
  MINUTE, HOUR, DAY or WEEK → ``DATETIME(x, '+n seconds')``;
* ``FLOOR(x)`` / ``CEIL(x)`` → ``CAST(x AS INTEGER)`` stepped by one where it truncated the
  other way (SQLite's own ``floor`` exists only in builds with the math functions).

Anything else that SQLite cannot run unchanged (a month step, a unit it has no format for,
an interval left over) is refused as UNSUPPORTED_ON_DATASOURCE. Pure.
"""

from __future__ import annotations

from sqlglot import exp

__all__ = ["SqliteUnsupported", "to_sqlite_forms"]

_PARTS: dict[type[exp.Expr], str] = {
    exp.Hour: "%H",
    exp.Minute: "%M",
    exp.Second: "%S",
    exp.Year: "%Y",
    exp.Month: "%m",
    exp.Day: "%d",
    exp.DayOfMonth: "%d",
    exp.DayOfYear: "%j",
}
_EXTRACT_UNITS = {
    "HOUR": "%H",
    "MINUTE": "%M",
    "SECOND": "%S",
    "YEAR": "%Y",
    "MONTH": "%m",
    "DAY": "%d",
}
_SECONDS = {"SECOND": 1, "MINUTE": 60, "HOUR": 3600, "DAY": 86400, "WEEK": 604800}


class SqliteUnsupported(Exception):
    """The tree holds something SQLite cannot compute the way MySQL does."""


def to_sqlite_forms(tree: exp.Expr) -> exp.Expr:
    """``tree`` with its MySQL date functions rewritten for SQLite (in place where it can)."""
    for node in list(tree.walk(bfs=False)):
        replacement = _rewrite(node)
        if replacement is not None:
            if node is tree:
                tree = replacement
            else:
                node.replace(replacement)
    if tree.find(exp.Interval) is not None:
        raise SqliteUnsupported
    return tree


def _rewrite(node: exp.Expr) -> exp.Expr | None:
    part = _PARTS.get(type(node))
    if part is not None:
        return _strftime_int(part, node.this)
    if isinstance(node, exp.DayOfWeek):
        return exp.Add(this=_strftime_int("%w", node.this), expression=exp.Literal.number(1))
    if isinstance(node, exp.Extract):
        unit = node.name.upper()
        if unit not in _EXTRACT_UNITS:
            raise SqliteUnsupported
        return _strftime_int(_EXTRACT_UNITS[unit], node.expression)
    if isinstance(node, exp.Anonymous) and node.name.upper() == "UNIX_TIMESTAMP":
        if len(node.expressions) != 1:
            raise SqliteUnsupported
        return _epoch(node.expressions[0])
    if isinstance(node, exp.TimestampDiff):
        return _difference(node)
    if isinstance(node, exp.Floor | exp.Ceil):
        return _rounded(node)
    if isinstance(node, exp.DateAdd | exp.DateSub):
        sign = -1 if isinstance(node, exp.DateSub) else 1
        return _shift(node.this, node.expression, node.args.get("unit"), sign)
    if isinstance(node, exp.Add | exp.Sub) and isinstance(node.expression, exp.Interval):
        sign = -1 if isinstance(node, exp.Sub) else 1
        interval = node.expression
        return _shift(node.this, interval.this, interval.args.get("unit"), sign)
    return None


def _strftime(form: str, value: exp.Expr) -> exp.Expr:
    return exp.Anonymous(this="STRFTIME", expressions=[exp.Literal.string(form), value])


def _strftime_int(form: str, value: exp.Expr) -> exp.Expr:
    return exp.Cast(this=_strftime(form, value), to=exp.DataType.build("INT"))


def _epoch(value: exp.Expr) -> exp.Expr:
    return _strftime_int("%s", value)


def _unit(unit: object) -> str:
    if not isinstance(unit, exp.Var) or unit.name.upper() not in _SECONDS:
        raise SqliteUnsupported
    return unit.name.upper()


def _difference(node: exp.TimestampDiff) -> exp.Expr:
    unit = _unit(node.args.get("unit"))
    # MySQL's TIMESTAMPDIFF(unit, a, b) is b - a; sqlglot keeps a in ``expression``.
    later, earlier = node.this, node.expression
    seconds = exp.Paren(this=exp.Sub(this=_epoch(later), expression=_epoch(earlier)))
    if _SECONDS[unit] == 1:
        return seconds
    return exp.IntDiv(this=seconds, expression=exp.Literal.number(_SECONDS[unit]))


def _rounded(node: exp.Floor | exp.Ceil) -> exp.Expr:
    if any(value for key, value in node.args.items() if key != "this"):
        raise SqliteUnsupported  # FLOOR(x, digits) and the like
    value = node.this
    whole = exp.Cast(this=value.copy(), to=exp.DataType.build("INT"))
    if isinstance(node, exp.Floor):
        step = exp.Paren(this=exp.LT(this=value.copy(), expression=whole.copy()))
        return exp.Paren(this=exp.Sub(this=whole, expression=step))
    step = exp.Paren(this=exp.GT(this=value.copy(), expression=whole.copy()))
    return exp.Paren(this=exp.Add(this=whole, expression=step))


def _shift(value: exp.Expr, amount: object, unit: object, sign: int) -> exp.Expr:
    name = _unit(unit)
    if not isinstance(amount, exp.Literal):
        raise SqliteUnsupported
    text = str(amount.this).strip()
    if not text.lstrip("-").isdigit():
        raise SqliteUnsupported
    seconds = sign * int(text) * _SECONDS[name]
    modifier = exp.Literal.string(f"{seconds:+d} seconds")
    return exp.Anonymous(this="DATETIME", expressions=[value, modifier])
