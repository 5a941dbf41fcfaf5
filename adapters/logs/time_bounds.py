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
_KEYS: Final = rb'"(?:ts|timestamp|@timestamp|time|datetime|date)"' + _WS + rb":" + _WS
_REST: Final = rb"(?::\d\d(?:[.,]\d{1,9})?)?(?:Z| ?UTC|[+-]00:?00)?\""
_JSON_TIME: Final = re.compile(_KEYS + rb'"(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)' + _REST)
_JSON_OTHER: Final = re.compile(
    _KEYS + rb'(?!"\d{4}-\d\d-\d\d[T ]\d\d:\d\d' + _REST + rb')["\-0-9]'
)
_TEXT_TIME: Final = re.compile(rb"\n(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)")
_TEXT_FIRST: Final = re.compile(rb"(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)")
_OFFSET: Final = rb"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d{1,9})?)?[+-](?!00:?00)\d"
_TEXT_OFFSET: Final = re.compile(rb"\n" + _OFFSET)
_FIRST_OFFSET: Final = re.compile(_OFFSET)
_KEY_ESCAPE: Final = re.compile(rb"\\u00[4-7][0-9a-fA-F]")

_Minute = tuple[bytes, bytes]
"""(``YYYY-MM-DD``, ``HH:MM``) as written: compares as time for UTC times."""


@frozen
class ChunkBounds:
    """The least and greatest minute a record time in a chunk can fall in (both None when
    the chunk is unsure)."""

    low: _Minute | None
    high: _Minute | None


def bounds_of(chunk: Chunk) -> ChunkBounds:
    """The bounds of a chunk's record times (``None`` bounds: unsure, see the module)."""
    data, size = chunk.data, chunk.size
    unsure = ChunkBounds(None, None)
    if data.find(b"\r", 0, size) >= 0 and data.count(b"\r", 0, size) != data.count(
        b"\r\n", 0, size
    ):
        return unsure
    if data.find(b"-----BEGIN", 0, size) >= 0 or _KEY_ESCAPE.search(data, 0, size):
        return unsure
    if _JSON_OTHER.search(data, 0, size) or _TEXT_OFFSET.search(data, 0, size):
        return unsure
    if _FIRST_OFFSET.match(data, 0, size):
        return unsure
    found: list[_Minute] = _JSON_TIME.findall(data, 0, size)
    found += _TEXT_TIME.findall(data, 0, size)
    first = _TEXT_FIRST.match(data, 0, size)
    if first is not None:
        found.append((first.group(1), first.group(2)))
    if not found:
        return unsure
    return ChunkBounds(min(found), max(found))


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
