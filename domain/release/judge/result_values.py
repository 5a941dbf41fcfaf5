"""The strings and numbers of a verified result, as a call's view reads them.

Keys that only describe the envelope (``tool_call_id``, ``status``, ...) are left out; a
number takes the unit its field or SQL column names (``waited_ms``), a string the units
written in it.
"""

from __future__ import annotations

from collections.abc import Iterator

from factledger.domain.json_types import JsonValue
from factledger.domain.release.judge.quantities import Quantity, key_unit, text_quantities

__all__ = ["cell_number", "nulls", "numbers", "row_quantities", "strings"]

_SKIPPED_KEYS = frozenset(
    {"tool_call_id", "status", "evidence_status", "relevance_level", "fingerprint", "truncated"}
)


def cell_number(cell: JsonValue) -> float | None:
    """The number a JSON cell holds (never a boolean), or None."""
    if isinstance(cell, bool) or not isinstance(cell, int | float):
        return None
    return float(cell)


def nulls(data: dict[str, JsonValue]) -> list[str]:
    """Fields and SQL columns without a value (``renewed_at: null``): they deny their name."""
    names = [key for key, value in data.items() if value is None]
    columns, rows = data.get("columns"), data.get("rows")
    if isinstance(columns, list) and isinstance(rows, list):
        for row in rows:
            if isinstance(row, list):
                names += [str(c) for c, cell in zip(columns, row, strict=False) if cell is None]
    return list(dict.fromkeys(name.replace("_", " ") for name in names))


def strings(value: JsonValue, key: str = "") -> list[tuple[str, str]]:
    """Every key and string of ``value``, each with the key it is under."""
    found: list[tuple[str, str]] = []
    _strings(value, key, found)
    return found


def _strings(value: JsonValue, key: str, found: list[tuple[str, str]]) -> None:
    if isinstance(value, dict):
        for name, item in value.items():
            if name not in _SKIPPED_KEYS:
                found.append((name, name))
                _strings(item, name, found)
    elif isinstance(value, list):
        for item in value:
            _strings(item, key, found)
    elif isinstance(value, str):
        found.append((key, value))


def numbers(value: JsonValue, key: str = "") -> list[Quantity]:
    """Every number of ``value`` (its SQL rows aside), with the unit of its key or text."""
    found: list[Quantity] = []
    _numbers(value, key, found)
    return found


def _numbers(value: JsonValue, key: str, found: list[Quantity]) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, dict):
        for name, item in value.items():
            if name not in _SKIPPED_KEYS and name not in {"scope", "rows"}:
                _numbers(item, name, found)
    elif isinstance(value, list):
        for item in value:
            _numbers(item, key, found)
    elif isinstance(value, int | float):
        unit = key_unit(key)
        found.extend(text_quantities(f"{value} {unit}" if unit else str(value)))
    elif isinstance(value, str):
        found.extend(text_quantities(value))


def row_quantities(data: dict[str, JsonValue]) -> Iterator[Quantity]:
    """The cells of SQL rows, each with the unit its column name carries."""
    columns = data.get("columns")
    rows = data.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list):
        return
    names = [str(c) for c in columns]
    for row in rows:
        if isinstance(row, list):
            for name, cell in zip(names, row, strict=False):
                yield from numbers(cell, name)
