"""The current time, bound: ``NOW()`` and its kin become literals of the call's start instant.

A query that says ``NOW()`` would give another answer each time it ran. The validator
replaces every current-time function with a typed literal of one instant, given by the
caller (the start of the call), so the SQL that runs, and that the observation shows, says
which instant it meant and gives the same rows when it runs again:

* MySQL and SQLite: ``NOW()``, ``CURRENT_TIMESTAMP``, ``LOCALTIME``, ``LOCALTIMESTAMP``,
  ``SYSDATE()`` → ``CAST('2026-05-01 10:00:00' AS DATETIME)`` in the datasource's time zone;
  ``UTC_TIMESTAMP()`` the same in UTC; ``CURDATE()`` / ``CURRENT_DATE`` / ``UTC_DATE()`` →
  ``CAST('2026-05-01' AS DATE)``; ``CURTIME()`` / ``UTC_TIME()`` → ``CAST('10:00:00' AS
  TIME)``; ``UNIX_TIMESTAMP()`` → the instant's epoch seconds;
* PostgreSQL: ``now()``, ``CURRENT_TIMESTAMP``, ``transaction_timestamp()``,
  ``statement_timestamp()``, ``clock_timestamp()`` → ``CAST('… +00:00' AS TIMESTAMPTZ)``;
  ``LOCALTIMESTAMP`` → ``TIMESTAMP``; ``CURRENT_DATE`` → ``DATE``; ``CURRENT_TIME`` →
  ``TIMETZ``; ``LOCALTIME`` → ``TIME``.

Arithmetic on a bound instant with a constant interval (``NOW() - INTERVAL 1 DAY``,
``DATE_SUB(NOW(), INTERVAL 2 HOUR)``, ``now() - interval '15 minutes'``) is folded into one
literal, the way the engine would compute it (a month step keeps the day, or takes the
month's last day). Pure: the instant is an argument, never read from a clock.
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, date, datetime, timedelta, timezone

from returns.result import Failure, Result, Success
from sqlglot import exp

from factledger.domain.sql.policy import SqlDialect
from factledger.domain.sql.refusal import RefusalCode, SqlRefusal

__all__ = [
    "bind_current_time",
    "is_current_time",
    "normalize_timestamps",
    "parse_offset",
    "valid_precision",
]

_OFFSET = re.compile(r"([+-])(\d{2}):(\d{2})")
_MYSQL_NOW = frozenset({"NOW", "SYSDATE"})
_POSTGRES_NOW = frozenset({"TRANSACTION_TIMESTAMP", "STATEMENT_TIMESTAMP", "CLOCK_TIMESTAMP"})
_SECOND_UNITS = {
    "MICROSECOND": 0.000001,
    "SECOND": 1,
    "MINUTE": 60,
    "HOUR": 3600,
    "DAY": 86400,
    "WEEK": 604800,
}
_MONTH_UNITS = {"MONTH": 1, "QUARTER": 3, "YEAR": 12}
_FRACTION = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.(\d+))?")
_INTERVAL_TEXT = re.compile(r"\s*(-?\d{1,6})\s*([a-z]+?)s?\s*", re.IGNORECASE)


_FOLDABLE = frozenset(
    {exp.DataType.Type.DATETIME, exp.DataType.Type.TIMESTAMP, exp.DataType.Type.TIMESTAMPTZ}
)


def parse_offset(text: str) -> timezone | None:
    """``+HH:MM`` / ``-HH:MM`` as a fixed time zone; None when it is not one."""
    match = _OFFSET.fullmatch(text)
    if match is None:
        return None
    sign, hours, minutes = match.groups()
    if int(hours) > 14 or int(minutes) > 59:
        return None
    delta = timedelta(hours=int(hours), minutes=int(minutes))
    return timezone(-delta if sign == "-" else delta)


def bind_current_time(
    tree: exp.Expr,
    dialect: SqlDialect,
    now: datetime | None,
    zone: timezone = UTC,
    nodes: list[exp.Expr] | None = None,
) -> Result[bool, SqlRefusal]:
    """Replace every current-time function of ``tree`` (in place) by a literal of ``now``
    seen in ``zone``; True when the query named the current time. Without an instant (an
    offline check) the functions are kept as written, except on SQLite, which refuses them
    (NONDETERMINISTIC_FUNCTION), as it refuses a naive instant. ``nodes`` may give the
    tree's nodes, already listed."""
    listed = list(tree.walk()) if nodes is None else nodes
    found = [node for node in listed if _kind(node, dialect) is not None]
    if not found:
        return Success(False)
    if now is None and dialect != "sqlite":
        # An offline check without an instant: the functions stay as written (the SQL tool
        # always passes the call's instant). SQLite has no such functions to keep.
        return Success(False)
    if now is None or now.tzinfo is None:
        return Failure(SqlRefusal(RefusalCode.NONDETERMINISTIC_FUNCTION))
    bound: set[int] = set()
    for node in found:
        if _kind(node, dialect) == "age":
            today = _cast(now.astimezone(zone).date().isoformat(), "DATE")
            node.set("expressions", [today, *node.expressions])
            continue
        literal = _literal(node, dialect, now, zone)
        if literal is None:
            return Failure(SqlRefusal(RefusalCode.FORBIDDEN_FUNCTION))
        replaced = node.replace(literal)
        bound.add(id(replaced))
    _fold(tree, bound)
    return Success(True)


def is_current_time(node: exp.Expr, dialect: SqlDialect) -> bool:
    """True for a current-time function (``NOW()``, ``CURRENT_DATE``, …)."""
    kind = _kind(node, dialect)
    return kind is not None and kind != "age"


def valid_precision(node: exp.Expr) -> bool:
    """True when a current-time function's argument, if any, is a precision of 0 to 6."""
    return _fraction_digits(node) is not None


def _kind(node: exp.Expr, dialect: SqlDialect) -> str | None:
    """Which current value a node asks for: ``now``, ``utc_now``, ``date``, ``utc_date``,
    ``time``, ``utc_time``, ``local_now``, ``local_time``, ``epoch``; None for other nodes."""
    if isinstance(node, exp.Anonymous):
        name = node.name.upper()
        if dialect == "postgres":
            if name == "AGE" and len(node.expressions) == 1:
                return "age"  # age(x) is age(current_date, x)
            return "now" if name in _POSTGRES_NOW else None
        if name in _MYSQL_NOW:
            return "now"
        if name == "UNIX_TIMESTAMP" and not node.expressions:
            return "epoch"
        return "utc_time" if name == "UTC_TIME" else None
    kinds: tuple[tuple[type[exp.Expr], str], ...] = (
        (exp.CurrentTimestamp, "now"),
        (exp.UtcTimestamp, "utc_now"),
        (exp.CurrentDate, "date"),
        (exp.UtcDate, "utc_date"),
        (exp.CurrentTime, "time"),
        (exp.UtcTime, "utc_time"),
        (exp.Localtimestamp, "local_now"),
        (exp.Localtime, "local_time"),
    )
    for node_type, kind in kinds:
        if type(node) is node_type:
            return kind
    return None


def _literal(node: exp.Expr, dialect: SqlDialect, now: datetime, zone: timezone) -> exp.Expr | None:
    kind = _kind(node, dialect)
    digits = _fraction_digits(node)
    if kind is None or digits is None:
        return None
    local = now.astimezone(zone)
    utc = now.astimezone(UTC)
    if kind == "epoch":
        return exp.Literal.number(int(utc.timestamp()))
    moment = utc if kind.startswith("utc_") else local
    stamp = _stamp(moment, digits)
    if dialect == "postgres":
        return _postgres_literal(kind, moment, stamp)
    if kind in ("date", "utc_date"):
        return _cast(moment.date().isoformat(), "DATE")
    if kind in ("time", "utc_time", "local_time"):
        return _cast(stamp[11:], "TIME", digits)
    return _cast(stamp, "DATETIME", digits)


def _postgres_literal(kind: str, moment: datetime, stamp: str) -> exp.Expr:
    offset = moment.strftime("%z")
    offset = f"{offset[:3]}:{offset[3:]}"
    if kind == "date":
        return _cast(moment.date().isoformat(), "DATE")
    if kind == "time":
        return _cast(stamp[11:] + offset, "TIMETZ")
    if kind == "local_time":
        return _cast(stamp[11:], "TIME")
    if kind == "local_now":
        return _cast(stamp, "TIMESTAMP")
    return _cast(stamp + offset, "TIMESTAMPTZ")


def _fraction_digits(node: exp.Expr) -> int | None:
    """The fractional-second precision asked for (``NOW(3)``), 0 by default."""
    arguments = [value for value in node.args.values() if value not in (None, False, [])]
    if isinstance(node, exp.Anonymous):
        arguments = list(node.expressions)
    if not arguments:
        return 0
    if len(arguments) != 1:
        return None
    value = arguments[0]
    if isinstance(value, exp.Literal) and not value.is_string and str(value.this).isdigit():
        digits = int(str(value.this))
        return digits if digits <= 6 else None
    return None


def _stamp(moment: datetime, digits: int) -> str:
    text = moment.strftime("%Y-%m-%d %H:%M:%S")
    if digits:
        text += "." + f"{moment.microsecond:06d}"[:digits]
    elif moment.microsecond:
        text += "." + f"{moment.microsecond:06d}"
    return text


def _cast(text: str, type_name: str, digits: int = 0) -> exp.Cast:
    data_type = exp.DataType.build(type_name)
    if digits and type_name in ("DATETIME", "TIME"):
        data_type.set("expressions", [exp.DataTypeParam(this=exp.Literal.number(digits))])
    return exp.Cast(this=exp.Literal.string(text), to=data_type)


# -- folding ------------------------------------------------------------------------------


def _fold(tree: exp.Expr, bound: set[int]) -> None:
    """Fold ``bound ± constant interval`` into one literal, innermost first."""
    changed = True
    while changed:
        changed = False
        for node in list(tree.walk()):
            folded = _folded(node, bound)
            if folded is not None:
                bound.add(id(node.replace(folded)))
                changed = True
                break


def _folded(node: exp.Expr, bound: set[int]) -> exp.Expr | None:
    if isinstance(node, exp.Add | exp.Sub):
        base, step = node.this, node.expression
        sign = -1 if isinstance(node, exp.Sub) else 1
        if isinstance(base, exp.Interval) and isinstance(node, exp.Add):
            base, step = step, base
        if id(base) not in bound or not isinstance(step, exp.Interval):
            return None
        return _shifted(base, _interval(step.this, step.args.get("unit")), sign)
    if isinstance(node, exp.DateAdd | exp.DateSub):
        base = node.this
        if id(base) not in bound:
            return None
        sign = -1 if isinstance(node, exp.DateSub) else 1
        return _shifted(base, _interval(node.expression, node.args.get("unit")), sign)
    return None


def _interval(amount: object, unit: object) -> tuple[int, str] | None:
    """``(count, UNIT)`` of a constant interval, units singular and upper case."""
    if not isinstance(amount, exp.Literal):
        return None
    text = str(amount.this)
    if isinstance(unit, exp.Var):
        text = f"{text} {unit.name}"
    match = _INTERVAL_TEXT.fullmatch(text)
    if match is None:
        return None
    count, name = match.groups()
    name = name.upper()
    if name not in _SECOND_UNITS and name not in _MONTH_UNITS:
        return None
    return int(count), name


def _shifted(base: exp.Expr, interval: tuple[int, str] | None, sign: int) -> exp.Expr | None:
    if interval is None or not isinstance(base, exp.Cast):
        return None
    count, unit = interval
    text = str(base.this.this)
    type_name = base.to.this
    try:
        if type_name == exp.DataType.Type.DATE:
            if unit not in _MONTH_UNITS and unit not in ("DAY", "WEEK"):
                return None  # MySQL turns a DATE into a DATETIME here: leave it to the engine
        elif type_name not in _FOLDABLE:
            return None
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    shifted = _add(moment, sign * count, unit)
    if shifted is None:
        return None
    result = base.copy()
    result.this.set("this", _same_format(text, shifted, type_name))
    return result


def _add(moment: datetime, count: int, unit: str) -> datetime | None:
    if unit in _SECOND_UNITS:
        try:
            return moment + timedelta(seconds=count * _SECOND_UNITS[unit])
        except OverflowError:
            return None
    months = moment.month - 1 + count * _MONTH_UNITS[unit]
    year = moment.year + months // 12
    if not 1 <= year <= 9999:
        return None
    month = months % 12 + 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def _same_format(original: str, moment: datetime, type_name: object) -> str:
    if type_name == exp.DataType.Type.DATE:
        return date(moment.year, moment.month, moment.day).isoformat()
    match = _FRACTION.match(original)
    digits = len(match.group(1) or "") if match is not None else 0
    if moment.microsecond and not digits:
        digits = 6
    text = moment.strftime("%Y-%m-%d %H:%M:%S")
    if digits:
        text += "." + f"{moment.microsecond:06d}"[:digits]
    if type_name == exp.DataType.Type.TIMESTAMPTZ:
        offset = moment.strftime("%z")
        text += f"{offset[:3]}:{offset[3:]}"
    return text


def normalize_timestamps(nodes: list[exp.Expr]) -> None:
    """MySQL's ``TIMESTAMP '…'`` literal and one-argument ``TIMESTAMP(x)`` are DATETIME
    values: write them (in place) as ``CAST(… AS DATETIME)``, the form that reads back the
    same. ``nodes`` are the tree's nodes."""
    for node in nodes:
        if isinstance(node, exp.Cast):
            target = node.args.get("to")
            if (
                isinstance(target, exp.DataType)
                and target.this in (exp.DataType.Type.TIMESTAMP, exp.DataType.Type.TIMESTAMPTZ)
                and not target.expressions
            ):
                node.set("to", exp.DataType.build("DATETIME"))
        elif isinstance(node, exp.Timestamp):
            extra = [key for key, value in node.args.items() if key != "this" and value]
            if not extra and isinstance(node.this, exp.Expr):
                node.replace(exp.Cast(this=node.this, to=exp.DataType.build("DATETIME")))
