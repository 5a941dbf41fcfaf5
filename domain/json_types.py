"""JSON value types shared by every layer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeAlias

__all__ = [
    "JsonObject",
    "JsonScalar",
    "JsonValue",
    "first_object",
    "json_leaves",
    "list_or_empty",
    "object_or_empty",
]

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


def object_or_empty(value: JsonValue) -> JsonObject:
    """``value`` when it is a JSON object, else an empty one: an optional member read
    leniently, for a text that names what it finds."""
    return value if isinstance(value, dict) else {}


def list_or_empty(value: JsonValue) -> list[JsonValue]:
    """``value`` when it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []


def first_object(value: JsonValue) -> JsonObject:
    """The first item of a JSON array when it is an object, else an empty object."""
    return object_or_empty(value[0]) if isinstance(value, list) and value else {}
