"""Reading nested JSON values in tests with the types checked at each step."""

from __future__ import annotations

from factledger.domain.json_types import JsonValue


def at(value: JsonValue, *path: str | int) -> JsonValue:
    """``value[path[0]][path[1]]…``, asserting a dict for a key and a list for an index."""
    for key in path:
        if isinstance(key, int):
            assert isinstance(value, list), (key, value)
            value = value[key]
        else:
            assert isinstance(value, dict), (key, value)
            value = value[key]
    return value
