"""The heads of many JSON lines at once: the times, levels and services ``object_head``
gives, read a column at a time when the objects share one key layout."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.logs.line_format import LEVEL_VALUES, head_keys, level_of
from factledger.domain.logs.timestamps import all_in_own_form, normalize_instant

__all__ = ["object_columns"]


def object_columns(
    values: Sequence[JsonObject],
) -> tuple[list[str], list[str | None], list[str | None]] | None:
    """The times, levels and services ``object_head`` gives JSON objects that share one key
    layout, all timed and none with a stack, computed a column at a time; None when they
    are not all such objects (``object_head`` must then read them one by one)."""
    try:
        layouts = set(map(tuple, values))
        if len(layouts) != 1:
            return None
        time_key, level_key, service_key, stack_key, message_key = head_keys(layouts.pop())
        if time_key is None or stack_key is not None:
            return None
        if message_key is not None and "\n" in "".join(map(itemgetter(message_key), values)):
            return None
        stamps = list(map(itemgetter(time_key), values))
        times = stamps if all_in_own_form(stamps) else list(map(normalize_instant, stamps))
        if None in times:
            return None
        levels = _column(values, level_key, _level_of_value)
        services = _column(values, service_key, _service_of_value)
    except TypeError:
        return None
    return times, levels, services  # type: ignore[return-value]


def _column(
    values: Sequence[JsonObject], key: str | None, convert: Callable[[JsonValue], str | None]
) -> list[str | None]:
    """``convert`` of each object's value under ``key`` (None without the key), converting
    each distinct value once; TypeError for a value that cannot be a dictionary key."""
    if key is None:
        return [None] * len(values)
    column = list(map(itemgetter(key), values))
    table = {value: convert(value) for value in set(column)}
    return list(map(table.__getitem__, column))


def _level_of_value(value: JsonValue) -> str | None:
    """The level ``object_head`` reads from a level key's value."""
    if not isinstance(value, str):
        return None
    level = LEVEL_VALUES.get(value)
    return level_of(value) if level is None and value not in LEVEL_VALUES else level


def _service_of_value(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None
