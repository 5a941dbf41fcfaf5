"""What a logs query did not read or could not place, counted by kind.

A backend names every part of the searched scope it left out: a file it did not read, or a
record it read but could not judge. Each count means "a match may be hidden here", so any
non-zero count makes the result incomplete: zero matches then do not mean that nothing
matched in the scope, only that nothing matched in what was read.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final

from factledger.domain.json_types import JsonValue

__all__ = ["SkipKind", "describe_skipped", "read_skipped"]


class SkipKind(StrEnum):
    """Why part of a scope was not read or placed (stable keys of ``skipped``)."""

    HIDDEN_ENTRIES = "hidden_entries"
    """Files and folders below the searched folder whose name starts with a dot (a folder
    counts once; empty files are not counted: they hold nothing)."""
    BINARY_FILES = "binary_files"
    """Files whose first bytes hold a NUL byte (compressed or binary data)."""
    UNREADABLE_FILES = "unreadable_files"
    """Files that could not be opened or read to the end, and entries that are no regular
    file (pipes, sockets, devices)."""
    SYMLINKS = "symlinks"
    """Symbolic links that lead outside the searched folder or nowhere (never followed; a
    link to a file inside the folder is not counted: the file is read under its own name)."""
    UNPARSABLE_LINES = "unparsable_lines"
    """Records whose first line looks like JSON but is none, that matched the text and
    window and were kept out only by the service filter (their service cannot be read)."""
    UNTIMED_RECORDS = "untimed_records"
    """Records that matched the text and service under a window query but carry no time,
    neither their own nor one inherited from an earlier record of their file."""


_NOUNS: Final = {
    SkipKind.HIDDEN_ENTRIES: ("hidden entry", "hidden entries"),
    SkipKind.BINARY_FILES: ("binary file", "binary files"),
    SkipKind.UNREADABLE_FILES: ("unreadable file", "unreadable files"),
    SkipKind.SYMLINKS: ("symbolic link not followed", "symbolic links not followed"),
    SkipKind.UNPARSABLE_LINES: ("unparsable JSON line", "unparsable JSON lines"),
    SkipKind.UNTIMED_RECORDS: ("record without a time", "records without a time"),
}
_KINDS: Final = frozenset(kind.value for kind in SkipKind)


def read_skipped(value: JsonValue) -> dict[str, int] | None:
    """The counts of a ``skipped`` object (known kinds, positive counts, in kind order), or
    None when it is malformed. Zero counts are dropped."""
    if not isinstance(value, dict):
        return None
    counts: dict[str, int] = {}
    for name, count in value.items():
        if name not in _KINDS:
            return None
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            return None
        if count:
            counts[name] = count
    return {kind.value: counts[kind.value] for kind in SkipKind if kind.value in counts}


def describe_skipped(skipped: Mapping[str, int]) -> str:
    """``2 binary files, 1 hidden entry`` (empty when nothing was skipped)."""
    parts: list[str] = []
    for kind in SkipKind:
        count = skipped.get(kind.value, 0)
        if count:
            one, many = _NOUNS[kind]
            parts.append(f"{count} {one if count == 1 else many}")
    return ", ".join(parts)
