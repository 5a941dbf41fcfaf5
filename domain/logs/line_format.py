"""Reading log lines into records: JSON lines, plain text with a leading ISO-8601 time and
optional level, and continuation lines (stack frames, causes, PEM bodies) attached to the
record before them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Final, Literal

from attrs import frozen

from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.logs.levels import normalize_level
from factledger.domain.logs.stack_traces import looks_like_continuation
from factledger.domain.logs.timestamps import (
    LEADING_TIMESTAMP,
    format_instant,
    normalize_instant,
)

__all__ = [
    "LEVEL_VALUES",
    "LineRecord",
    "RecordSplitter",
    "assemble_records",
    "build_record",
    "JsonHead",
    "continues_record",
    "head_keys",
    "json_head",
    "level_of",
    "object_head",
    "parse_line",
    "record_time",
]

_TIME_KEYS: Final = ("ts", "timestamp", "@timestamp", "time", "datetime", "date")
_LEVEL_KEYS: Final = ("level", "severity", "lvl", "levelname", "log.level", "loglevel")
_MESSAGE_KEYS: Final = ("message", "msg", "log", "text", "event")
_SERVICE_KEYS: Final = ("service", "service.name", "service_name", "app", "application")
_STACK_KEYS: Final = (
    "stack",
    "stack_trace",
    "stacktrace",
    "exception",
    "exc_info",
    "error.stack",
    "error.stack_trace",
)
_LEVEL_AFTER_TIME: Final = re.compile(r"[\s,|:\-]*[\[(]?(?P<level>[A-Za-z]{3,13})[\])]?:?(?=\s|$)")
_LEVEL_WORDS: Final = frozenset(
    {
        "TRACE",
        "DEBUG",
        "INFO",
        "NOTICE",
        "WARN",
        "WARNING",
        "ERROR",
        "ERR",
        "CRITICAL",
        "CRIT",
        "FATAL",
        "SEVERE",
        "ALERT",
        "EMERG",
        "PANIC",
    }
)
_SCAN_WORDS: Final = 8
_EPOCH_MILLIS: Final = 100_000_000_000


@frozen
class LineRecord:
    """One record: its first line parsed, its continuation lines attached."""

    ts: str | None
    """When it was written (raw-format instant) or None."""
    level: str | None
    """``LogLevel`` value or None."""
    service: str | None
    """The service named in a structured record, else None (the backend decides)."""
    message: str
    """The message without timestamp and level."""
    fields: JsonObject
    """Other fields of a structured record."""
    stack: tuple[str, ...]
    """Continuation lines (and a structured record's stack text, one line each)."""
    kind: Literal["json", "text"]
    """How the first line was written."""
    first_line: int = 0
    """Line number of the first line, from 1."""
    last_line: int = 0
    """Line number of the last continuation line (== first_line when none)."""
    text: str = ""
    """The record's lines as written, joined by line breaks (for text queries)."""


JsonHead = tuple["str | None", "str | None", "str | None", bool]
"""(ts, level, service, has stack) of a JSON line (``json_head``)."""

_Parsed = tuple[
    "str | None",
    "str | None",
    "str | None",
    str,
    JsonObject,
    tuple[str, ...],
    Literal["json", "text"],
]
"""(ts, level, service, message, fields, stack, kind) of one line."""


def parse_line(line: str) -> LineRecord:
    """A line as a record of its own (no continuation lines yet)."""
    ts, level, service, message, fields, stack, kind = _parse(line)
    text = line.strip() if kind == "json" else line.rstrip("\r\n")
    return LineRecord(ts, level, service, message, fields, stack, kind, text=text)


def _parse(line: str) -> _Parsed:
    stripped = line.strip()
    if stripped.startswith("{"):
        structured = _parse_json(stripped)
        if structured is not None:
            return structured
    return _parse_text(line.rstrip("\r\n"))


def record_time(line: str) -> str | None:
    """``parse_line(line).ts``, computed without building the record."""
    stripped = line.strip()
    if stripped.startswith("{"):
        value = _load_object(stripped)
        if value is not None:
            for key in _TIME_KEYS:
                if key in value:
                    return _time(value[key])
            return None
    found = LEADING_TIMESTAMP.match(line.rstrip("\r\n"))
    return None if found is None else normalize_instant(found.group("ts"))


def continues_record(line: str) -> bool:
    """True when a line read outside a private-key block belongs to the record before it: it
    has text, no leading time, and reads as a stack frame, a cause or an exception line."""
    first = line[:1]
    if first == "{" or "0" <= first <= "9" or not first:
        return False
    if not line.strip() or LEADING_TIMESTAMP.match(line) is not None:
        return False
    return looks_like_continuation(line)


class RecordSplitter:
    """Tells, line by line, which lines start a record: every line but those that continue
    the record before them (``continues_record``) and every line of a private-key block (from
    a record's ``-----BEGIN`` line to the next line holding ``-----END``)."""

    __slots__ = ("_in_key_block", "_open")

    def __init__(self) -> None:
        self._open = False
        self._in_key_block = False

    def starts_record(self, line: str) -> bool:
        """True when ``line`` (without its line break) starts a record."""
        if self._open and (self._in_key_block or continues_record(line)):
            if self._in_key_block and "-----END" in line:
                self._in_key_block = False
            return False
        self._open = True
        self._in_key_block = "-----BEGIN" in line and "-----END" not in line
        return True


def build_record(lines: Sequence[str], first_line: int, inherited: str | None = None) -> LineRecord:
    """The record made of ``lines`` (each without its line break, the first one starting the
    record); it takes the time ``inherited`` when its first line has none."""
    ts, level, service, message, fields, stack, kind = _parse(lines[0])
    return LineRecord(
        ts if ts is not None else inherited,
        level,
        service,
        message,
        fields,
        stack + tuple(lines[1:]) if len(lines) > 1 else stack,
        kind,
        first_line,
        first_line + len(lines) - 1,
        "\n".join(lines),
    )


def assemble_records(lines: Iterable[str], inherit_time: bool = True) -> Iterator[LineRecord]:
    """Records from consecutive lines of one file. A line that continues the record before
    it (a stack frame, ``Caused by:``, a traceback line, a private-key body) is attached to
    it; every other line starts a record. A record without its own time takes the time of
    the record before it when ``inherit_time``."""
    splitter = RecordSplitter()
    pending: list[str] = []
    first = 1
    last_ts: str | None = None
    number = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if pending and not splitter.starts_record(line):
            pending.append(line)
            continue
        if pending:
            record = build_record(pending, first, last_ts if inherit_time else None)
            last_ts = record.ts if record.ts is not None else last_ts
            yield record
        else:
            splitter.starts_record(line)
        pending = [line]
        first = number
    if pending:
        yield build_record(pending, first, last_ts if inherit_time else None)


def _parse_text(line: str) -> _Parsed:
    found = LEADING_TIMESTAMP.match(line)
    if found is None:
        return None, _scan_level(line), None, line, {}, (), "text"
    instant = normalize_instant(found.group("ts"))
    if instant is None:
        return None, _scan_level(line), None, line, {}, (), "text"
    rest = line[found.end() :]
    level_match = _LEVEL_AFTER_TIME.match(rest)
    level = None
    if level_match is not None:
        normalized = normalize_level(level_match.group("level"))
        if normalized is not None:
            level = normalized.value
            rest = rest[level_match.end() :]
    message = rest.lstrip(" \t,|-:").strip() if level is None else rest.strip(" \t-:|")
    return instant, level, None, message, {}, (), "text"


def _scan_level(line: str) -> str | None:
    for word in line.split(None, _SCAN_WORDS)[:_SCAN_WORDS]:
        candidate = word.strip("[]():,")
        if candidate in _LEVEL_WORDS:
            level = normalize_level(candidate)
            return None if level is None else level.value
    return None


def _load_object(text: str) -> JsonObject | None:
    """The JSON object a line holds, or None (not JSON, not an object, or nested too deep)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _parse_json(text: str) -> _Parsed | None:
    value = _load_object(text)
    if value is None:
        return None
    fields: JsonObject = dict(value)
    ts = _time(_take(fields, _TIME_KEYS))
    level_value = _take(fields, _LEVEL_KEYS)
    level = _level_of(level_value)
    if level_value is not None and not isinstance(level_value, str):
        fields["level"] = level_value
    message = _message_of(_take(fields, _MESSAGE_KEYS))
    service_value = _take(fields, _SERVICE_KEYS)
    service = service_value if isinstance(service_value, str) else None
    if service_value is not None and service is None:
        fields["service"] = service_value
    stack_value = _take(fields, _STACK_KEYS)
    stack = _stack_of(stack_value)
    if stack_value is not None and not isinstance(stack_value, str | list):
        fields["exception"] = stack_value
    if "\n" in message:
        first, *more = message.split("\n")
        message = first
        stack = tuple(line for line in more if line.strip()) + stack
    return ts, level, service, message, fields, stack, "json"


def json_head(line: str) -> JsonHead | None:
    """(ts, level, service, has stack) of a line holding a JSON object, exactly as
    ``parse_line(line)`` gives them, without building the record; None for any other line."""
    stripped = line.strip()
    if not stripped.startswith("{"):
        return None
    value = _load_object(stripped)
    return None if value is None else object_head(value)


def object_head(value: JsonObject) -> JsonHead:
    """``json_head`` of the line holding the JSON object ``value`` (already parsed)."""
    time_key, level_key, service_key, stack_key, message_key = _head_keys(tuple(value))
    ts = None if time_key is None else _time(value[time_key])
    level_value = None if level_key is None else value[level_key]
    level = _LEVEL_VALUES.get(level_value) if isinstance(level_value, str) else None
    if level is None and isinstance(level_value, str) and level_value not in _LEVEL_VALUES:
        level = _level_of(level_value)
        if len(_LEVEL_VALUES) < _MEMO_SIZE:
            _LEVEL_VALUES[level_value] = level
    service_value = None if service_key is None else value[service_key]
    service = service_value if isinstance(service_value, str) else None
    stacked = stack_key is not None and bool(_stack_of(value[stack_key]))
    if not stacked and message_key is not None:
        message = _message_of(value[message_key])
        stacked = "\n" in message and any(part.strip() for part in message.split("\n")[1:])
    return ts, level, service, stacked


_HeadKeys = tuple["str | None", "str | None", "str | None", "str | None", "str | None"]
_MEMO_SIZE: Final = 1024
_LEVEL_VALUES: dict[str, str | None] = {}
"""Level names seen → their ``LogLevel`` value (a pure function's answers, bounded)."""
_LAYOUTS: dict[tuple[str, ...], _HeadKeys] = {}
"""Key layouts seen → which key holds the time, level, service, stack and message."""


def _head_keys(keys: tuple[str, ...]) -> _HeadKeys:
    """The first key of each kind a JSON object with these keys has (None: none)."""
    found = _LAYOUTS.get(keys)
    if found is None:
        present = set(keys)
        found = tuple(
            next((key for key in kind if key in present), None)
            for kind in (_TIME_KEYS, _LEVEL_KEYS, _SERVICE_KEYS, _STACK_KEYS, _MESSAGE_KEYS)
        )  # type: ignore[assignment]
        if len(_LAYOUTS) < _MEMO_SIZE:
            _LAYOUTS[keys] = found  # type: ignore[assignment]
    return found  # type: ignore[return-value]


def _level_of(value: JsonValue) -> str | None:
    if not isinstance(value, str):
        return None
    normalized = normalize_level(value)
    return None if normalized is None else normalized.value


def _message_of(value: JsonValue) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _stack_of(value: JsonValue) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(line for line in value.splitlines() if line.strip())
    if isinstance(value, list):
        return tuple(item if isinstance(item, str) else json.dumps(item) for item in value)
    return ()


def _take(fields: JsonObject, keys: tuple[str, ...]) -> JsonValue:
    for key in keys:
        if key in fields:
            return fields.pop(key)
    return None


def _time(value: JsonValue) -> str | None:
    if isinstance(value, str):
        return normalize_instant(value)
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        seconds = value / 1000 if value >= _EPOCH_MILLIS else float(value)
        try:
            return format_instant(datetime.fromtimestamp(seconds, tz=UTC))
        except (OverflowError, OSError, ValueError):
            return None
    return None


head_keys: Final = _head_keys
"""Which keys of a JSON object's key layout hold its time, level, service, stack and message."""
level_of: Final = _level_of
"""The level a JSON level value names (None when it names none)."""
LEVEL_VALUES: Final = _LEVEL_VALUES
"""Level names already read → their level (shared with ``json_head``)."""
