"""Bounds on the record times a chunk of log bytes can hold, read without parsing a line.

A record's own time comes from one of two places (``line_format``): the leading ISO-8601
time of a plain-text line, or the value of a JSON line's time key (``ts``, ``timestamp``,
``@timestamp``, ``time``, ``datetime``, ``date``). Every such place in a chunk is found by a
pattern over the raw bytes, and the least and greatest (date, hour:minute) found bound every
own time the chunk's lines can have: a candidate found on a line that turns out not to parse
only widens the bounds. A chunk where a time could be written in a form the patterns do not
read exactly is ``unsure`` and is never skipped: a zone offset other than zero, a time key
whose value is a number or another text, a key spelled with ``\\u`` escapes, a lone
``\\r`` (a line break the patterns would not see), a private-key block marker (its lines
belong to the record before them, whatever they look like), or no time at all.
"""

from __future__ import annotations

import re
from typing import Final

from attrs import frozen

from factledger.adapters.logs.file_reader import Chunk
from factledger.domain.logs.matching import RecordFilter

__all__ = ["ChunkBounds", "bounds_of", "skippable"]

_WS: Final = rb"[ \t\r\n]*"
_KEY_NAMES: Final = (b"ts", b"timestamp", b"@timestamp", b"time", b"datetime", b"date")
_REST: Final = rb"(?::\d\d(?:[.,]\d{1,9})?)?(?:Z| ?UTC|[+-]00:?00)?\""
_CANONICAL: Final = rb'"\d{4}-\d\d-\d\d[T ]\d\d:\d\d' + _REST


def _after_key(name: bytes) -> bytes:
    return b'"' + re.escape(name) + b'"' + _WS + b":" + _WS


_JSON_OTHER: Final = {
    name: re.compile(_after_key(name) + rb"(?!" + _CANONICAL + rb')["\-0-9]') for name in _KEY_NAMES
}
_TENS: Final = rb"(\d{4}-\d\d-\d\d[T ]\d\d:\d)"
"""A time up to the tens of its minutes: the bounds are kept to ten minutes."""
_TEXT_FIRST: Final = re.compile(_TENS)
_MAX_STRETCHES: Final = 4
_OFFSET: Final = rb"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d{1,9})?)?[+-](?!00:?00)\d"
_TEXT_OFFSET: Final = re.compile(rb"\n" + _OFFSET)
_FIRST_OFFSET: Final = re.compile(_OFFSET)
_KEY_ESCAPE: Final = re.compile(rb"\\u00[4-7][0-9a-fA-F]")

_Minute = tuple[bytes, bytes]
"""(``YYYY-MM-DD``, ``HH:MM``): compares as time for UTC times."""


@frozen
class ChunkBounds:
    """The least and greatest minute a record time in a chunk can fall in (both None when
    the chunk is unsure)."""

    low: _Minute | None
    high: _Minute | None


def bounds_of(chunk: Chunk, newlines: int | None = None) -> ChunkBounds:
    """The bounds of a chunk's record times (``None`` bounds: unsure, see the module);
    ``newlines``: the chunk's line breaks, when counted already."""
    data, size = chunk.data, chunk.size
    unsure = ChunkBounds(None, None)
    if data.find(b"\r", 0, size) >= 0 and data.count(b"\r", 0, size) != data.count(
        b"\r\n", 0, size
    ):
        return unsure
    if data.find(b"-----BEGIN", 0, size) >= 0 or _KEY_ESCAPE.search(data, 0, size):
        return unsure
    found: list[bytes] = []
    if data.find(b'"', 0, size) >= 0:
        for name in _KEY_NAMES:
            if data.find(b'"' + name + b'"', 0, size) >= 0:
                if _JSON_OTHER[name].search(data, 0, size):
                    return unsure
                if not _tens(_after_key(name) + b'"', data, size, found):
                    return unsure
    if newlines is None:
        newlines = data.count(b"\n", 0, size)
    if not _all_lines_open_a_brace(data, size, newlines):
        if _TEXT_OFFSET.search(data, 0, size) or _FIRST_OFFSET.match(data, 0, size):
            return unsure
        first = _TEXT_FIRST.match(data, 0, size)
        if first is not None and first.group(1) not in found:
            found.append(first.group(1))
        if not _tens(rb"\n", data, size, found):
            return unsure
    if not found:
        return unsure
    low = min(found, key=_normal)
    high = max(found, key=_normal)
    return ChunkBounds((low[:10], low[11:15] + b"0"), (high[:10], high[11:15] + b"9"))


def _tens(lead: bytes, data: bytes, size: int, found: list[bytes]) -> bool:
    """Add to ``found`` every ten-minute stretch a time after ``lead`` falls in (each found
    by one search that skips the ones already known); False when there are too many."""
    while len(found) <= _MAX_STRETCHES:
        known = b"|".join(re.escape(stretch) for stretch in found)
        skip = b"(?!" + known + b")" if known else b""
        hit = re.compile(lead + skip + _TENS).search(data, 0, size)
        if hit is None:
            return True
        found.append(hit.group(1))
    return False


def _normal(stretch: bytes) -> bytes:
    """A stretch with ``T`` between date and time, so that stretches compare as times."""
    return stretch[:10] + b"T" + stretch[11:]


def _all_lines_open_a_brace(data: bytes, size: int, newlines: int) -> bool:
    """True when every line of the chunk starts with ``{`` (then none starts with a time)."""
    if data[:1] != b"{":
        return False
    starts = newlines - (1 if data[size - 1 : size] == b"\n" else 0)
    return data.count(b"\n{", 0, size) == starts


def _minute(instant: str) -> _Minute:
    """A raw-format instant's minute, as the bounds write it."""
    return instant[:10].encode(), instant[11:16].encode()


def skippable(bounds: ChunkBounds, record_filter: RecordFilter) -> bool:
    """True when no record time the chunk can hold lies in the filter's window."""
    if bounds.low is None or bounds.high is None:
        return False
    start, end = record_filter.start, record_filter.end
    before = start is not None and bounds.high < _minute(start)
    after = end is not None and bounds.low > _minute(end)
    return before or after
