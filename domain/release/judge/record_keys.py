"""A row's numbered grouping keys (``shard 2`` for a row whose ``shard_id`` holds 2), the
words a claim names a row by."""

from __future__ import annotations

from factledger.domain.json_types import JsonValue

__all__ = ["key_word", "keys"]

_ID_PARTS = frozenset({"id", "no", "num", "number", "idx", "index", "key"})


def key_word(key: str) -> str:
    """The column word of a key (``shard`` of ``shard 2``)."""
    return key.rsplit(" ", 1)[0]


def keys(item: JsonValue, columns: list[str] | None, group_by: tuple[str, ...]) -> frozenset[str]:
    """``shard 2`` for a row whose grouping column ``shard_id`` holds 2."""
    if columns is None or not isinstance(item, list):
        return frozenset()
    found: set[str] = set()
    for name, cell in zip(columns, item, strict=False):
        if name in group_by and isinstance(cell, int) and not isinstance(cell, bool):
            word = next((part for part in name.lower().split("_") if part not in _ID_PARTS), "")
            if word.isalpha():
                found.add(f"{word} {cell}")
    return frozenset(found)
