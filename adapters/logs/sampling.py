"""What a scan keeps of its matches: exact counts, and a sample spread over the whole scan.

When more records match than the limit allows, the returned ones are spread over the whole
scan (every 2nd, 4th, … match), errors, warnings and records with a stack trace kept apart
so a burst of them is never thinned away by volume; the matched count, the level counts and
the first and last time stay exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Final

from factledger.domain.json_types import JsonObject
from factledger.domain.logs.levels import LogLevel
from factledger.domain.logs.line_format import LineRecord
from factledger.domain.logs.query import LogQuery
from factledger.domain.logs.raw_format import UNKNOWN_LEVEL, RawHeader, encode_raw, query_header

__all__ = ["MatchCollector"]

_SEVERE: Final = frozenset(
    {LogLevel.WARN.value, LogLevel.ERROR.value, LogLevel.CRITICAL.value, LogLevel.FATAL.value}
)

_Item = tuple[str, int, int, JsonObject]
"""(time or "", file index, first line, raw record): the sort key and the record."""


class _Thinned:
    """Keeps every ``stride``-th item offered, doubling the stride when full."""

    __slots__ = ("capacity", "items", "offered", "stride")

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1, capacity)
        self.stride = 1
        self.offered = 0
        self.items: list[_Item] = []

    def wants(self) -> bool:
        """True when the next item offered will be kept (``offer`` must follow)."""
        return self.offered % self.stride == 0

    def offer(self, item: _Item | None) -> None:
        """Offer the next item (None stands for one that ``wants`` said is not kept)."""
        if item is not None:
            self.items.append(item)
            if len(self.items) > self.capacity:
                self.items = self.items[::2]
                self.stride *= 2
        self.offered += 1


class MatchCollector:
    """Counts every matched record and keeps a bounded, spread sample of them."""

    def __init__(self, query: LogQuery) -> None:
        self._query = query
        self._severe = _Thinned(query.limit // 2)
        self._other = _Thinned(query.limit)
        self.matched = 0
        self.levels: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        self.first: str | None = None
        self.last: str | None = None

    def add(
        self,
        level: str | None,
        ts: str | None,
        stacked: bool,
        build: Callable[[], LineRecord],
        placed: tuple[str, int, str],
    ) -> None:
        """Count a matched record (its level, time and whether it has a stack) and offer it
        to the sample; ``build`` makes the record only when the sample keeps it. ``placed``
        is (service, file index, source)."""
        self.matched += 1
        self.levels[level or UNKNOWN_LEVEL] += 1
        if ts is not None:
            if self.first is None or ts < self.first:
                self.first = ts
            if self.last is None or ts > self.last:
                self.last = ts
        kept = self._severe if level in _SEVERE or stacked else self._other
        if not kept.wants():
            kept.offer(None)
            return
        record = build()
        service, file_index, source = placed
        raw = _raw(record, service, source)
        kept.offer((record.ts or "", file_index, record.first_line, raw))

    def add_unstacked(
        self,
        times: list[str],
        levels: list[str | None],
        build: Callable[[int], tuple[LineRecord, str]],
        file_index: int,
        source: str,
    ) -> None:
        """``add`` for a run of timed matched records without a stack, in order; ``build``
        makes the record at an index (and names its service) only when the sample keeps it."""
        self.matched += len(levels)
        self.levels.update(level or UNKNOWN_LEVEL for level in levels)
        low, high = min(times), max(times)
        if self.first is None or low < self.first:
            self.first = low
        if self.last is None or high > self.last:
            self.last = high
        severe, other = self._severe, self._other
        for index, level in enumerate(levels):
            kept = severe if level in _SEVERE else other
            if kept.offered % kept.stride:
                kept.offered += 1
                continue
            record, service = build(index)
            kept.offer(
                (record.ts or "", file_index, record.first_line, _raw(record, service, source))
            )

    def raw(self, window_start: str | None, window_end: str | None) -> str:
        """The raw result: the header over every match and the chosen records in order."""
        kept_severe = self._severe.items
        room = max(0, self._query.limit - len(kept_severe))
        kept_other = self._other.items
        if len(kept_other) > room:
            step = len(kept_other) / room if room else 0
            kept_other = [kept_other[int(i * step)] for i in range(room)] if room else []
        chosen = sorted(kept_severe + kept_other, key=lambda item: item[:3])
        header = RawHeader(
            query=query_header(self._query),
            window_start=window_start if window_start is not None else self.first,
            window_end=window_end if window_end is not None else self.last,
            matched_count=self.matched,
            returned_count=len(chosen),
            limit_reached=self.matched > len(chosen),
            level_counts=dict(sorted(self.levels.items())),
            skipped={kind: count for kind, count in sorted(self.skipped.items()) if count},
        )
        return encode_raw(header, [item[3] for item in chosen])


def _raw(record: LineRecord, service: str, source: str) -> JsonObject:
    """A kept record as the raw result holds it."""
    return {
        "ts": record.ts,
        "service": service,
        "level": record.level,
        "message": record.message,
        "fields": record.fields,
        "stack": list(record.stack),
        "source": source,
        "line": record.first_line,
    }
