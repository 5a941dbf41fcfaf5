"""Rates whose unit is in a field's name: ``rate_limit_rps=50``, ``read_qps``, ``msgs_per_min``.

A value of such a field is a count per second, minute, hour or day, whatever the claim calls
it: "50 requests per second" is ``limit_rps=50``, "50 requests a minute" is not. The fields
are read from result keys, SQL columns and ``name=value`` pairs of log text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import TypeVar

from factledger.domain.json_types import JsonValue

__all__ = ["field_quantity_unit", "field_unit", "result_rates", "size_rates", "text_rates"]

_T = TypeVar("_T")
_SECOND = 1e3
_FIELD = re.compile(
    r"(?:^|[_.\-])(?:(rps|qps|tps|per_?sec(?:ond)?|per_?s)"
    r"|(rpm|per_?min(?:ute)?)|(rph|per_?h(?:ou)?r)|(per_?day))$",
    re.IGNORECASE,
)
_UNITS = (_SECOND, 60 * _SECOND, 3600 * _SECOND, 86400 * _SECOND)
_SIZE = re.compile(r"(?:^|[_.\-])(bytes|b|kb|kib|mb|mib|gb|gib|tb)[_.\-]per", re.IGNORECASE)
_SPELLED = {"bytes": "B", "b": "B", "kb": "kB", "kib": "KiB", "mb": "MB", "mib": "MiB"}
_SPELLED |= {"gb": "GB", "gib": "GiB", "tb": "TB"}
_PAIR = re.compile(r"\b([A-Za-z][\w.\-]*)=(\d[\d,]*(?:\.\d+)?)\b")


@lru_cache(maxsize=1024)
def field_unit(name: str) -> float | None:
    """The milliseconds of the unit of time a field's name gives its value per, if any
    (``limit_rps`` → 1,000; ``jobs_per_min`` → 60,000)."""
    found = _FIELD.search(name)
    if found is None:
        return None
    return next(unit for group, unit in zip(found.groups(), _UNITS, strict=True) if group)


def field_quantity_unit(name: str) -> tuple[str, float] | None:
    """The size and the milliseconds of the unit of time of a field whose name gives both
    (``apply_mb_per_sec`` → MB per 1,000 ms), if any."""
    per = field_unit(name)
    size = _SIZE.search(name)
    if per is None or size is None:
        return None
    return _SPELLED[size.group(1).lower()], per


def size_rates(content: JsonValue) -> Iterator[tuple[str, float]]:
    """The values of size-rate fields of a result (keys, SQL columns), each as its text with
    the size (``212.5 MB``) and the ms of the unit of time it is per."""
    for value, unit in _keyed(content, reader=field_quantity_unit):
        size, per = unit
        yield f"{value:g} {size}", per


def text_rates(texts: Iterable[str]) -> Iterator[tuple[float, float]]:
    """The ``name=value`` pairs of texts whose name is a rate field, as (value, unit ms)."""
    for text in texts:
        if "=" in text:
            yield from _pair_rates(text)


@lru_cache(maxsize=4096)
def _pair_rates(text: str) -> tuple[tuple[float, float], ...]:
    """The rate fields of one text (remembered: a run's calls repeat their lines)."""
    found: list[tuple[float, float]] = []
    for m in _PAIR.finditer(text):
        unit = field_unit(m.group(1))
        if unit is not None:
            found.append((float(m.group(2).replace(",", "")), unit))
    return tuple(found)


def result_rates(content: JsonValue, texts: Iterable[str]) -> Iterator[tuple[float, float]]:
    """The values of rate fields of a result (keys, SQL columns, ``name=value`` in its
    texts), as (value, unit ms)."""
    yield from _keyed(content, reader=field_unit)
    yield from text_rates(texts)


def _keyed(
    value: JsonValue, key: str = "", *, reader: Callable[[str], _T | None]
) -> Iterator[tuple[float, _T]]:
    if isinstance(value, dict):
        columns, rows = value.get("columns"), value.get("rows")
        if isinstance(columns, list) and isinstance(rows, list):
            for row in rows:
                if isinstance(row, list):
                    for name, cell in zip(columns, row, strict=False):
                        yield from _keyed(cell, str(name), reader=reader)
        for name, item in value.items():
            if name not in {"rows", "scope"}:
                yield from _keyed(item, name, reader=reader)
    elif isinstance(value, list):
        for item in value:
            yield from _keyed(item, key, reader=reader)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        unit = reader(key) if key else None
        if unit is not None:
            yield float(value), unit
