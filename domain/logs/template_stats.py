"""The projector's one pass over a raw result's records: each message redacted and mined
into its template; per template the count, first and last time, level counts and a few
candidate examples; a time sketch of records to sample events from; a few untimed ones.

A record is carried as a ``Candidate`` tuple (positions named below): a tuple is what a
pass over a million records can afford to build per record.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Final

from factledger.domain.json_types import JsonValue
from factledger.domain.logs.levels import SEVERE_LEVELS, LogLevel, level_rank, normalize_level
from factledger.domain.logs.raw_format import UNKNOWN_LEVEL
from factledger.domain.logs.redaction import Redactor
from factledger.domain.logs.templates import merge_templates, template_of_masked
from factledger.domain.logs.time_sketch import TimeSketch
from factledger.domain.logs.timestamps import format_instant, parse_instant

__all__ = [
    "EPOCH",
    "LEVEL",
    "MESSAGE",
    "ORDER",
    "RANK",
    "RECORD",
    "TEMPLATE",
    "TS",
    "WARN_RANK",
    "Candidate",
    "MalformedRecord",
    "RecordPass",
    "TemplateStats",
    "earliest",
    "latest",
    "merge_stats",
]

Candidate = tuple[
    int, "str | None", "float | None", int, "str | None", str, dict[str, JsonValue], str
]
"""A record that may be shown: (input order, ts, epoch seconds, severity rank, level,
redacted message, raw record object, template before merging)."""
ORDER: Final = 0
TS: Final = 1
EPOCH: Final = 2
RANK: Final = 3
LEVEL: Final = 4
MESSAGE: Final = 5
RECORD: Final = 6
TEMPLATE: Final = 7

WARN_RANK: Final = level_rank(LogLevel.WARN)
_STACK_RANK: Final = level_rank(LogLevel.ERROR)

_LevelInfo = tuple["str | None", int, bool, str]
"""(level, severity rank, is an error level, name counted under)."""


class MalformedRecord(Exception):
    """A record of the raw result has not the raw format's shape."""


class TemplateStats:
    """What is kept per template."""

    __slots__ = ("best", "count", "error", "first", "first_ts", "last", "last_ts", "levels", "rank")

    def __init__(self, candidate: Candidate, error: bool, level_name: str) -> None:
        self.count = 1
        self.first_ts = candidate[TS]
        self.last_ts = candidate[TS]
        self.levels = {level_name: 1}
        self.rank = candidate[RANK]
        self.error = error
        self.best = candidate
        self.first = candidate
        self.last = candidate

    def add(self, candidate: Candidate, error: bool, level_name: str) -> None:
        """Count one more record of this template."""
        self.count += 1
        self.last = candidate
        counts = self.levels
        counts[level_name] = counts.get(level_name, 0) + 1
        ts = candidate[TS]
        if ts is not None:
            if self.first_ts is None or ts < self.first_ts:
                self.first_ts = ts
            if self.last_ts is None or ts > self.last_ts:
                self.last_ts = ts
        if candidate[RANK] > self.rank:
            self.rank = candidate[RANK]
            self.best = candidate
        if error:
            self.error = True

    def absorb(self, other: TemplateStats) -> None:
        """Take in the records of a template merged into this one."""
        self.count += other.count
        self.first_ts = earliest(self.first_ts, other.first_ts)
        self.last_ts = latest(self.last_ts, other.last_ts)
        for name, count in other.levels.items():
            self.levels[name] = self.levels.get(name, 0) + count
        self.rank = max(self.rank, other.rank)
        self.error = self.error or other.error
        if (other.best[RANK], -other.best[ORDER]) > (self.best[RANK], -self.best[ORDER]):
            self.best = other.best
        if other.first[ORDER] < self.first[ORDER]:
            self.first = other.first
        if other.last[ORDER] > self.last[ORDER]:
            self.last = other.last


class RecordPass:
    """Reads records one at a time into per-template statistics and a time sketch."""

    def __init__(self, redactor: Redactor, max_templates: int, untimed_limit: int) -> None:
        self.table: dict[str, TemplateStats] = {}
        """Statistics per template (before merging)."""
        self.sketch: TimeSketch[Candidate] = TimeSketch()
        """Records kept per stretch of time."""
        self.untimed: list[Candidate] = []
        """The first records without a time."""
        self.overflow = 0
        """Records of new templates past ``max_templates`` (counted only)."""
        self._redact_words = redactor.redact_words
        self._max_templates = max_templates
        self._untimed_limit = untimed_limit
        self._seconds: dict[str, float] = {}
        self._levels: dict[JsonValue, _LevelInfo] = {}

    def read(self, records: Iterator[JsonValue]) -> None:
        """Take in every record (raises ``MalformedRecord`` on the first bad one)."""
        for order, value in enumerate(records):
            if type(value) is not dict:
                raise MalformedRecord
            self._one(order, value)

    def _one(self, order: int, value: dict[str, JsonValue]) -> None:
        message = value.get("message")
        if type(message) is not str:
            message = "" if message is None else json.dumps(message, ensure_ascii=False)
        ts, epoch = self._time(value.get("ts"))
        level_key = value.get("level")
        level_info = self._levels.get(level_key)
        if level_info is None:
            level_info = self._levels[level_key] = _level_info(level_key)
        level, rank, error, level_name = level_info
        stack = value.get("stack")
        if stack:
            if type(stack) is not list:
                raise MalformedRecord
            rank = max(rank, _STACK_RANK)
            error = True
        redacted, masked = self._redact_words(message)
        template = template_of_masked(masked)
        candidate: Candidate = (order, ts, epoch, rank, level, redacted, value, template)
        stats = self.table.get(template)
        if stats is not None:
            stats.add(candidate, error, level_name)
        elif len(self.table) >= self._max_templates:
            self.overflow += 1
            return
        else:
            self.table[template] = TemplateStats(candidate, error, level_name)
        if epoch is not None:
            self.sketch.offer(epoch, rank, order, template, candidate)
        elif len(self.untimed) < self._untimed_limit:
            self.untimed.append(candidate)

    def _time(self, ts: JsonValue) -> tuple[str | None, float | None]:
        """A record's time in the raw format's form, and as epoch seconds."""
        if ts is None:
            return None, None
        if type(ts) is not str:
            raise MalformedRecord
        if len(ts) == 24 and ts[16] == ":" and ts[19] == "." and ts[23] == "Z":
            minute = ts[:16]
            base = self._seconds.get(minute)
            if base is None:
                base = self._seconds[minute] = _seconds(minute)
            fraction = ts[17:19] + ts[20:23]
            if not fraction.isdigit() or fraction[0] > "5":
                raise MalformedRecord
            return ts, base + int(fraction) / 1000
        instant = parse_instant(ts)
        if instant is None:
            raise MalformedRecord
        return format_instant(instant), instant.timestamp()


def _seconds(text: str) -> float:
    try:
        return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()
    except ValueError as error:
        raise MalformedRecord from error


def _level_info(value: JsonValue) -> _LevelInfo:
    if value is None:
        return None, level_rank(None), False, UNKNOWN_LEVEL
    if not isinstance(value, str):
        raise MalformedRecord
    level = normalize_level(value)
    if level is None:
        return None, level_rank(None), False, UNKNOWN_LEVEL
    return level.value, level_rank(level), level in SEVERE_LEVELS, level.value


def merge_stats(
    table: dict[str, TemplateStats],
) -> tuple[dict[str, TemplateStats], dict[str, str]]:
    """The statistics after the batch merge of templates, and each template's merged one."""
    mapping = merge_templates({template: stats.count for template, stats in table.items()})
    merged: dict[str, TemplateStats] = {}
    for template, stats in table.items():
        target = mapping[template]
        existing = merged.get(target)
        if existing is None:
            merged[target] = stats
        else:
            existing.absorb(stats)
    return merged, mapping


def earliest(left: str | None, right: str | None) -> str | None:
    """The earlier of two optional instants."""
    if left is None:
        return right
    if right is None:
        return left
    return min(left, right)


def latest(left: str | None, right: str | None) -> str | None:
    """The later of two optional instants."""
    if left is None:
        return right
    if right is None:
        return left
    return max(left, right)
