"""JSON value types shared by every layer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeAlias

__all__ = ["JsonObject", "JsonScalar", "JsonValue", "json_leaves"]

JsonScalar: TypeAlias = str | int | float | bool | None
JsonValue: TypeAlias = JsonScalar | list["JsonValue"] | dict[str, "JsonValue"]
JsonObject: TypeAlias = dict[str, JsonValue]


def json_leaves(value: JsonValue, skipped: frozenset[str] = frozenset()) -> Iterator[JsonScalar]:
    """Every value of a JSON value that is no object or list, in order, leaving out what
    stands under the keys in ``skipped`` (at any depth)."""
    if isinstance(value, dict):
        for name, item in value.items():
            if name not in skipped:
                yield from json_leaves(item, skipped)
    elif isinstance(value, list):
        for item in value:
            yield from json_leaves(item, skipped)
    else:
        yield value
