"""Rates whose unit is in a field's name: ``rate_limit_rps=50``, ``read_qps``, ``msgs_per_min``.

A value of such a field is a count per second, minute, hour or day, whatever the claim calls
it: "50 requests per second" is ``limit_rps=50``, "50 requests a minute" is not. The fields
are read from result keys, SQL columns and ``name=value`` pairs of log text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from factledger.domain.json_types import JsonValue

__all__ = ["field_unit", "result_rates", "text_rates"]

_SECOND = 1e3
_FIELD = re.compile(
    r"(?:^|[_.\-])(?:(rps|qps|tps|per_?sec(?:ond)?|per_?s)"
    r"|(rpm|per_?min(?:ute)?)|(rph|per_?h(?:ou)?r)|(per_?day))$",
    re.IGNORECASE,
)
_UNITS = (_SECOND, 60 * _SECOND, 3600 * _SECOND, 86400 * _SECOND)
_PAIR = re.compile(r"\b([A-Za-z][\w.\-]*)=(\d[\d,]*(?:\.\d+)?)\b")


def field_unit(name: str) -> float | None:
    """The milliseconds of the unit of time a field's name gives its value per, if any
    (``limit_rps`` → 1,000; ``jobs_per_min`` → 60,000)."""
    found = _FIELD.search(name)
    if found is None:
        return None
    return next(unit for group, unit in zip(found.groups(), _UNITS, strict=True) if group)


def text_rates(texts: Iterable[str]) -> Iterator[tuple[float, float]]:
    """The ``name=value`` pairs of texts whose name is a rate field, as (value, unit ms)."""
    for text in texts:
        if "=" not in text:
            continue
        for m in _PAIR.finditer(text):
            unit = field_unit(m.group(1))
            if unit is not None:
                yield float(m.group(2).replace(",", "")), unit


def result_rates(content: JsonValue, texts: Iterable[str]) -> Iterator[tuple[float, float]]:
    """The values of rate fields of a result (keys, SQL columns, ``name=value`` in its
    texts), as (value, unit ms)."""
    yield from _keyed(content)
    yield from text_rates(texts)


def _keyed(value: JsonValue, key: str = "") -> Iterator[tuple[float, float]]:
    if isinstance(value, dict):
        columns, rows = value.get("columns"), value.get("rows")
        if isinstance(columns, list) and isinstance(rows, list):
            for row in rows:
                if isinstance(row, list):
                    for name, cell in zip(columns, row, strict=False):
                        yield from _keyed(cell, str(name))
        for name, item in value.items():
            if name not in {"rows", "scope"}:
                yield from _keyed(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _keyed(item, key)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        unit = field_unit(key) if key else None
        if unit is not None:
            yield float(value), unit
