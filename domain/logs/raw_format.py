"""The raw result a logs backend returns: one JSON object, written and read here.

Shape (``format`` = ``factledger.logs/1``)::

    {
      "format": "factledger.logs/1",
      "query": {"service": str|null, "query": str|null, "start": instant|null,
                "end": instant|null, "limit": int},
      "window": {"start": instant|null, "end": instant|null},
      "matched_count": int,        # records that matched, all of them
      "returned_count": int,       # records below (== len(records))
      "limit_reached": bool,       # true when matched_count > returned_count
      "level_counts": {level: int},  # over every matched record; "UNKNOWN" when none
      "skipped": {kind: int},      # optional: what the backend did not read or place
      "records": [
        {"ts": instant|null, "service": str|null, "level": str|null, "message": str,
         "fields": {str: json}, "stack": [str, ...], "source": str|null, "line": int|null}
      ]
    }

``instant`` is UTC ``YYYY-MM-DDTHH:MM:SS.mmmZ``. ``window`` is the time window the backend
searched: the requested bounds, an open bound replaced by the first or last matched instant.
``stack`` holds the continuation lines (stack-trace frames, ``Caused by:`` …) attached to the
record; ``fields`` holds every other field of a structured record. Records come in time
order. ``records`` is written last so a reader can stream it; a reader accepts any order.

``skipped`` (see ``factledger.domain.logs.skipped``) counts, per kind, the parts of the scope
the backend did not read (hidden, binary, unreadable files, links it did not follow) or
could not place (records without a time under a window, JSON lines that do not parse). It
may be absent: a backend that writes none states that it read everything.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Final, TypeGuard

from attrs import field, frozen

from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.logs.query import LogQuery
from factledger.domain.logs.skipped import read_skipped
from factledger.domain.logs.timestamps import format_instant, parse_instant

__all__ = [
    "RAW_FORMAT",
    "RawHeader",
    "RawLogRecord",
    "RawReader",
    "encode_raw",
    "query_header",
]

RAW_FORMAT: Final = "factledger.logs/1"
UNKNOWN_LEVEL: Final = "UNKNOWN"


@frozen
class RawLogRecord:
    """One log record as a backend found it (message unredacted: raw belongs to the harness)."""

    ts: str | None
    """When it was written (raw-format instant), or None when the line carried no time."""
    service: str | None
    """The service that wrote it."""
    level: str | None
    """Its level name as normalized by the backend (``LogLevel`` value), or None."""
    message: str
    """The message, without the line's timestamp and level."""
    fields: JsonObject
    """Every other field of a structured record."""
    stack: tuple[str, ...] = ()
    """Continuation lines attached to it (stack-trace frames …)."""
    source: str | None = None
    """The file (relative to the backend's directory) it came from."""
    line: int | None = None
    """Its first line number in that file, from 1."""

    def to_json(self) -> JsonObject:
        """This record as a raw-format object."""
        return {
            "ts": self.ts,
            "service": self.service,
            "level": self.level,
            "message": self.message,
            "fields": self.fields,
            "stack": list(self.stack),
            "source": self.source,
            "line": self.line,
        }


@frozen
class RawHeader:
    """Everything in a raw result except its records."""

    query: JsonObject
    """The query as the backend understood it (``query_header``)."""
    window_start: str | None
    """The searched window's start (raw-format instant), None when unbounded and empty."""
    window_end: str | None
    """The searched window's end."""
    matched_count: int
    """Records that matched."""
    returned_count: int
    """Records returned."""
    limit_reached: bool
    """True when fewer records were returned than matched."""
    level_counts: dict[str, int]
    """Matched records per level name (``UNKNOWN`` for none)."""
    skipped: dict[str, int] = field(factory=dict)
    """What the backend did not read or place, per ``SkipKind`` value (non-zero counts)."""


def query_header(query: LogQuery) -> JsonObject:
    """How a raw result restates the query it answers."""
    return {
        "service": query.service,
        "query": query.text,
        "start": None if query.start is None else format_instant(query.start),
        "end": None if query.end is None else format_instant(query.end),
        "limit": query.limit,
    }


def encode_raw(header: RawHeader, records: Iterator[JsonObject] | list[JsonObject]) -> str:
    """The raw JSON text for a header and its records (records written last)."""
    head: JsonObject = {
        "format": RAW_FORMAT,
        "query": header.query,
        "window": {"start": header.window_start, "end": header.window_end},
        "matched_count": header.matched_count,
        "returned_count": header.returned_count,
        "limit_reached": header.limit_reached,
        "level_counts": dict(header.level_counts),
        "skipped": dict(header.skipped),
    }
    opening = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
    body = ",".join(encoder.encode(record) for record in records)
    return opening[:-1] + ',"records":[' + body + "]}"


class RawFormatError(Exception):
    """Raised inside the reader only; the reader turns it into a stated reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_WHITESPACE: Final = frozenset(" \t\n\r")
_HEADER_KEYS: Final = frozenset(
    {
        "format",
        "query",
        "window",
        "matched_count",
        "returned_count",
        "limit_reached",
        "level_counts",
    }
)
_OPTIONAL_KEYS: Final = frozenset({"skipped"})


class RawReader:
    """Reads a raw result in one pass, handing out its records one at a time.

    Iterate ``records()`` to the end, then ask ``header()``; ``failure`` names the first
    problem met (a malformed text yields no more records).
    """

    def __init__(self, text: str) -> None:
        self._text = text
        self._decoder = json.JSONDecoder()
        self._members: dict[str, JsonValue] = {}
        self.failure: str | None = None
        self.record_count = 0

    def records(self) -> Iterator[JsonValue]:
        """Every element of ``records``, in order (any JSON value: the caller checks)."""
        try:
            yield from self._read()
        except RawFormatError as error:
            self.failure = error.reason
        except ValueError:
            self.failure = "MALFORMED_RAW"

    def _skip(self, position: int) -> int:
        text = self._text
        while position < len(text) and text[position] in _WHITESPACE:
            position += 1
        return position

    def _expect(self, position: int, char: str) -> int:
        position = self._skip(position)
        if position >= len(self._text) or self._text[position] != char:
            raise RawFormatError("MALFORMED_RAW")
        return position + 1

    def _read(self) -> Iterator[JsonValue]:
        text = self._text
        decode = self._decoder.raw_decode
        position = self._expect(0, "{")
        seen_records = False
        position = self._skip(position)
        if position < len(text) and text[position] == "}":
            raise RawFormatError("MALFORMED_RAW")
        while True:
            position = self._skip(position)
            key, position = decode(text, position)
            if not isinstance(key, str):
                raise RawFormatError("MALFORMED_RAW")
            if key in self._members or (key == "records" and seen_records):
                raise RawFormatError("DUPLICATE_KEY")
            position = self._expect(position, ":")
            if key == "records":
                seen_records = True
                position = self._expect(position, "[")
                position = self._skip(position)
                if position < len(text) and text[position] == "]":
                    position += 1
                else:
                    count = 0
                    while True:
                        if text[position] in _WHITESPACE:
                            position = self._skip(position)
                        value, position = decode(text, position)
                        count += 1
                        yield value
                        if text[position : position + 1] == ",":
                            position += 1
                            continue
                        position = self._expect(position, "]")
                        break
                    self.record_count = count
            else:
                value, position = decode(text, self._skip(position))
                self._members[key] = value
            position = self._skip(position)
            if position < len(text) and text[position] == ",":
                position += 1
                continue
            position = self._expect(position, "}")
            break
        if self._skip(position) != len(text):
            raise RawFormatError("TRAILING_DATA")
        if not seen_records:
            raise RawFormatError("MISSING_RECORDS")

    def header(self) -> RawHeader | str:
        """The header once every record was read, or the reason it is not valid."""
        if self.failure is not None:
            return self.failure
        members = self._members
        if not _HEADER_KEYS <= set(members) <= _HEADER_KEYS | _OPTIONAL_KEYS:
            return "MALFORMED_RAW"
        if members["format"] != RAW_FORMAT:
            return "UNKNOWN_FORMAT"
        query = members["query"]
        window = members["window"]
        matched = members["matched_count"]
        returned = members["returned_count"]
        limit_reached = members["limit_reached"]
        levels = members["level_counts"]
        if not isinstance(query, dict) or not isinstance(window, dict):
            return "MALFORMED_RAW"
        if not _is_count(matched) or not _is_count(returned):
            return "MALFORMED_RAW"
        if not isinstance(limit_reached, bool) or not isinstance(levels, dict):
            return "MALFORMED_RAW"
        level_counts: dict[str, int] = {}
        for name, count in levels.items():
            if not _is_count(count):
                return "MALFORMED_RAW"
            level_counts[name] = count
        start = window.get("start")
        end = window.get("end")
        if set(window) != {"start", "end"} or not _is_instant(start) or not _is_instant(end):
            return "MALFORMED_RAW"
        skipped = read_skipped(members.get("skipped", {}))
        if skipped is None:
            return "MALFORMED_RAW"
        if returned != self.record_count or matched < returned:
            return "INCONSISTENT_COUNTS"
        if limit_reached != (matched > returned) or sum(level_counts.values()) != matched:
            return "INCONSISTENT_COUNTS"
        return RawHeader(
            query=query,
            window_start=start if isinstance(start, str) else None,
            window_end=end if isinstance(end, str) else None,
            matched_count=matched,
            returned_count=returned,
            limit_reached=limit_reached,
            level_counts=level_counts,
            skipped=skipped,
        )


def _is_count(value: JsonValue) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_instant(value: JsonValue) -> bool:
    return value is None or (isinstance(value, str) and parse_instant(value) is not None)
