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
_MINUTE: Final = rb"(\d{4}-\d\d-\d\d[T ]\d\d:\d\d)"
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
    spans: list[tuple[bytes, bytes]] = []
    if data.find(b'"', 0, size) >= 0:
        for name in _KEY_NAMES:
            if data.find(b'"' + name + b'"', 0, size) >= 0:
                if _JSON_OTHER[name].search(data, 0, size):
                    return unsure
                spans += _spans(_after_key(name) + b'"', data, size)
    if newlines is None:
        newlines = data.count(b"\n", 0, size)
    if not _all_lines_open_a_brace(data, size, newlines):
        if _TEXT_OFFSET.search(data, 0, size) or _FIRST_OFFSET.match(data, 0, size):
            return unsure
        first = _TEXT_FIRST.match(data, 0, size)
        if first is not None:
            spans.append(_span(first.group(1)))
        spans += _spans(rb"\n", data, size)
    if not spans:
        return unsure
    low = min(span[0] for span in spans)
    high = max(span[1] for span in spans)
    return ChunkBounds((low[:10], low[11:16]), (high[:10], high[11:16]))


def _spans(lead: bytes, data: bytes, size: int) -> list[tuple[bytes, bytes]]:
    """The (first, last) minute of every stretch the times after ``lead`` fall in: the
    ten-minute stretches, each found by one search that skips those already known; past a
    few of them, the least and greatest minute written."""
    found: list[bytes] = []
    while len(found) < _MAX_STRETCHES:
        known = b"|".join(re.escape(stretch) for stretch in found)
        skip = b"(?!" + known + b")" if known else b""
        hit = re.compile(lead + skip + _TENS).search(data, 0, size)
        if hit is None:
            return [_span(stretch) for stretch in found]
        found.append(hit.group(1))
    minutes = [_normal(minute) for minute in re.compile(lead + _MINUTE).findall(data, 0, size)]
    return [(min(minutes), max(minutes))]


def _span(stretch: bytes) -> tuple[bytes, bytes]:
    """The first and last minute of a ten-minute stretch, ``T`` between date and time."""
    normal = _normal(stretch)
    return normal + b"0", normal + b"9"


def _normal(written: bytes) -> bytes:
    """A time with ``T`` between date and time, so that times compare as written."""
    return written[:10] + b"T" + written[11:]


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
