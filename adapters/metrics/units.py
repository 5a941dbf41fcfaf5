"""The unit of a query's values, from its metric names and the functions applied to them.

Prometheus names carry their unit as a suffix (``_seconds``, ``_bytes``, ``_ratio``; a
counter ends in ``_total``). ``rate`` of a counter is per second, ``histogram_quantile`` of a
``_seconds_bucket`` is seconds, a ratio of two values in one unit is a ratio, ``count`` is a
count. The store's metadata, when it names a unit, wins (``unit_from_metadata``).
"""

from __future__ import annotations

from typing import Final, assert_never

import promql_parser as promql

from factledger.adapters.metrics.functions import FUNCTIONS, FunctionUnit

__all__ = ["unit_from_metadata", "unit_of", "unit_of_name"]

_SUFFIXES: Final = (
    ("_seconds", "s"),
    ("_milliseconds", "ms"),
    ("_bytes", "bytes"),
    ("_ratio", "ratio"),
    ("_percent", "%"),
    ("_celsius", "°C"),
    ("_volts", "V"),
    ("_joules", "J"),
    ("_meters", "m"),
)
_HISTOGRAM_PARTS: Final = ("_bucket", "_sum", "_count", "_created")
_COUNTING: Final = frozenset({"count", "count_values"})
_METADATA_UNITS: Final = {"seconds": "s", "bytes": "bytes", "ratio": "ratio", "percent": "%"}


def unit_of_name(name: str) -> str | None:
    """The unit a metric name declares (``count`` for a counter without another unit)."""
    base = name
    if base.endswith("_count"):
        return "count"
    for part in _HISTOGRAM_PARTS:
        base = base.removesuffix(part)
    counter = base.endswith("_total")
    base = base.removesuffix("_total")
    for suffix, unit in _SUFFIXES:
        if base.endswith(suffix):
            return unit
    return "count" if counter else None


def unit_from_metadata(unit: str) -> str | None:
    """The unit as the result names it, from a unit in the store's metadata."""
    cleaned = unit.strip()
    if not cleaned:
        return None
    return _METADATA_UNITS.get(cleaned, cleaned[:32])


def _per_second(unit: str | None) -> str | None:
    return None if unit is None else f"{unit}/s"


def unit_of(node: object) -> str | None:
    """The unit of a parsed expression's values, when the names and functions tell it."""
    if isinstance(node, promql.VectorSelector):
        name = node.name or next(
            (m.value for m in node.matchers.matchers if m.name == "__name__"), ""
        )
        return unit_of_name(name)
    if isinstance(node, promql.MatrixSelector):
        return unit_of(node.vector_selector)
    if isinstance(node, promql.ParenExpr | promql.UnaryExpr | promql.SubqueryExpr):
        return unit_of(node.expr)
    if isinstance(node, promql.Call):
        return _call_unit(node)
    if isinstance(node, promql.AggregateExpr):
        if str(node.op) in _COUNTING:
            return "count"
        return None if str(node.op) == "group" else unit_of(node.expr)
    if isinstance(node, promql.BinaryExpr):
        return _binary_unit(node)
    return None


def _call_unit(node: promql.Call) -> str | None:
    name = node.func.name
    vectors = [arg for arg in node.args if not isinstance(arg, promql.NumberLiteral)]
    inner = unit_of(vectors[-1]) if vectors else None
    known = FUNCTIONS.get(name)
    if known is None:
        return None
    match known.unit:
        case FunctionUnit.BUCKET_UNIT:
            return unit_of_name(_first_name(node.args[-1]) or "")
        case FunctionUnit.PER_SECOND:
            return _per_second(inner)
        case FunctionUnit.COUNT:
            return "count"
        case FunctionUnit.SAME:
            return inner
        case _ as unreachable:
            assert_never(unreachable)


def _first_name(node: object) -> str | None:
    """The first metric name selected under ``node`` (the bucket series of a histogram)."""
    if isinstance(node, promql.VectorSelector):
        return node.name
    if isinstance(node, promql.MatrixSelector):
        return node.vector_selector.name
    children: list[object] = []
    if isinstance(node, promql.Call):
        children = list(node.args)
    elif isinstance(node, promql.AggregateExpr | promql.ParenExpr | promql.SubqueryExpr):
        children = [node.expr]
    elif isinstance(node, promql.BinaryExpr):
        children = [node.lhs, node.rhs]
    for child in children:
        found = _first_name(child)
        if found:
            return found
    return None


def _binary_unit(node: promql.BinaryExpr) -> str | None:
    op = str(node.op)
    lhs, rhs = unit_of(node.lhs), unit_of(node.rhs)
    if isinstance(node.rhs, promql.NumberLiteral):
        return lhs
    if isinstance(node.lhs, promql.NumberLiteral):
        return rhs
    if op == "/":
        return "ratio" if lhs is not None and lhs == rhs else None
    if op in ("+", "-", "==", "!=", ">", "<", ">=", "<=", "and", "or", "unless"):
        return lhs if lhs == rhs or op in ("and", "unless", ">", "<", ">=", "<=") else None
    return None
