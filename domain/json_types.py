"""JSON value types shared by every layer."""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["JsonObject", "JsonScalar", "JsonValue"]

JsonScalar: TypeAlias = str | int | float | bool | None
JsonValue: TypeAlias = JsonScalar | list["JsonValue"] | dict[str, "JsonValue"]
JsonObject: TypeAlias = dict[str, JsonValue]
