"""The scan of a text query: search the anchor term in raw chunks, judge only the records
around its hits.

For each line holding the anchor, the record it belongs to is found by walking back over
continuation lines to the line that starts it and forward over the continuation lines after
it; its text is checked against every term before its first line is parsed. A record
without a time of its own takes the time of the nearest record start before it that has one
(found by walking back, never further than the last record judged). All of this is the
reference assembler's rule read locally, which holds as long as no private-key block is open
and no lone ``\\r`` splits lines: from the first chunk where either may occur, the rest of
the range is read line by line (``LineScan``), from the record that chunk starts in.
"""

from __future__ import annotations

import json
import re
from typing import Final

from attrs import evolve

from factledger.adapters.logs.file_reader import Chunk, line_breaks
from factledger.adapters.logs.line_scan import LineScan
from factledger.adapters.logs.record_scan import (
    FileScan,
    ScanRange,
    decode_line,
    needs_line_by_line,
)
from factledger.adapters.logs.term_search import ChunkHits, TermFinder
from factledger.domain.json_types import JsonObject
from factledger.domain.logs.json_columns import object_columns
from factledger.domain.logs.line_format import (
    LineRecord,
    build_record,
    continues_record,
    json_head,
    object_head,
    record_time,
)

__all__ = ["HitScan"]

_TICK_EVERY: Final = 256
_STARTS_RECORD: Final = frozenset([b"", b"{", *(bytes([digit]) for digit in b"0123456789")])
"""First bytes of a line that never continues a record (``continues_record``)."""
_CONTINUED: Final = re.compile(rb"\n[^\n{0-9]")
"""A line break followed by a line whose first byte is not one of ``_STARTS_RECORD``."""


def _bulk_objects(data: bytes, found: list[tuple[int, int, int, int]]) -> list[JsonObject] | None:
    """The JSON object each of the lines ``found`` holds, parsed in one call (as one JSON
    array), or None when any of them holds anything else (they are then parsed one by one)."""
    if not found:
        return None
    text = b"[" + b",".join(data[start:stop] for start, stop, _, _ in found) + b"]"
    try:
        values = json.loads(text.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return None
    if len(values) != len(found) or not all(type(value) is dict for value in values):
        return None
    objects: list[JsonObject] = values
    return objects


class _LoneBreak(Exception):
    """A line read past the checked chunk holds a lone ``\\r``: read on line by line from the
    record at ``start`` (line ``line``)."""

    def __init__(self, start: int, line: int) -> None:
        super().__init__(start, line)
        self.start = start
        self.line = line


class HitScan:
    """Judges the records around the anchor's hits in one range of one file."""

    def __init__(self, scan: FileScan, finder: TermFinder, scan_range: ScanRange) -> None:
        self._scan = scan
        self._finder = finder
        self._range = scan_range
        self._resume = scan_range.start
        self._known = (scan_range.start, scan_range.inherited)
        self._judged = 0
        self._single = False

    def run(self) -> None:
        """Scan the whole range."""
        data, bounds = self._scan.data, self._range
        position, line = bounds.start, bounds.line
        while position < bounds.end:
            self._scan.tick()
            chunk = data.chunk(position, bounds.end)
            if not chunk.size:
                return
            if needs_line_by_line(chunk):
                self._read_on_from_chunk(chunk, line)
                return
            try:
                line = self._chunk(chunk, line)
            except _LoneBreak as lone:
                self._read_on(chunk, lone.start, lone.line)
                return
            position = chunk.end

    def _chunk(self, chunk: Chunk, line: int) -> int:
        """Judge the hits of one chunk; the line number after it."""
        hits = self._finder.hits(chunk)
        data = chunk.data
        self._single = self._one_line_records(chunk)
        counted, counted_line = 0, line
        relative = max(0, self._resume - chunk.base)
        if self._single:
            return self._one_line_chunk(chunk, hits, relative, line)
        while relative < chunk.size:
            found = hits.next_line(relative)
            if found < 0:
                break
            counted_line += data.count(b"\n", counted, found)
            counted = found
            self._resume = self._judge(chunk, chunk.base + found, counted_line)
            relative = self._resume - chunk.base
            self._judged += 1
            if self._judged % _TICK_EVERY == 0:
                self._scan.tick()
        if not counted:
            return line + line_breaks(data)  # each ends a line of the chunk
        return counted_line + data.count(b"\n", counted, chunk.size)

    def _one_line_chunk(self, chunk: Chunk, hits: ChunkHits, relative: int, line: int) -> int:
        """``_chunk`` for a chunk whose every line is a record of its own; the line number
        after it."""
        data, size, base = chunk.data, chunk.size, chunk.base
        scan, judged = self._scan, self._judged
        found_lines: list[tuple[int, int, int, int]] = []
        counted = 0
        while relative < size:
            found = hits.next_line(relative)
            if found < 0:
                break
            line += data.count(b"\n", counted, found)
            counted = found
            stop = data.find(b"\n", found, size)
            relative = size if stop < 0 else stop + 1
            found_lines.append((found, relative if stop < 0 else stop, relative, line))
            judged += 1
            if judged % _TICK_EVERY == 0:
                scan.tick()
        self._judged = judged
        self._resume = base + relative
        decided = self._finder.decides(hits)
        heads = _bulk_objects(data, found_lines) if decided else None
        if heads is not None and self._consider_columns(chunk, found_lines, heads):
            return line + data.count(b"\n", counted, size)
        matches = scan.filter.text_matches
        for at, (found, stop, after, number) in enumerate(found_lines):
            if heads is None:
                text = decode_line(data[found:stop])
                if decided or matches(text):
                    self._known = (
                        base + after,
                        self._consider_line(chunk, base + found, text, number),
                    )
                continue
            self._known = (
                base + after,
                self._consider_object(chunk, found, stop, number, heads[at]),
            )
        return line + data.count(b"\n", counted, size)

    def _consider_columns(
        self, chunk: Chunk, found_lines: list[tuple[int, int, int, int]], values: list[JsonObject]
    ) -> bool:
        """Hand on matched one-line records parsed to ``values`` a column at a time, when
        every one matches once its text did (no service, no window) and all are timed and
        without a stack (``object_columns``); False when they are not."""
        scan = self._scan
        unstacked = scan.unstacked
        if unstacked is None or scan.filter.service is not None or scan.filter.windowed:
            return False
        columns = object_columns(values)
        if columns is None:
            return False
        times, levels, services = columns
        data, own = chunk.data, scan.service

        def build(index: int) -> tuple[LineRecord, str]:
            found, stop, _, number = found_lines[index]
            record = build_record([decode_line(data[found:stop])], number, times[index])
            service = services[index]
            return record, service if service is not None else own

        unstacked(times, levels, build)
        self._known = (chunk.base + found_lines[-1][2], times[-1])
        return True

    def _consider_object(
        self, chunk: Chunk, found: int, stop: int, line: int, value: JsonObject
    ) -> str | None:
        """``_consider_line`` for a matched line already parsed to the JSON object ``value``."""
        head = object_head(value)
        ts = self._own_or_inherited(head[0], chunk, chunk.base + found)
        raw = chunk.data[found:stop]
        self._scan.consider_head(
            (ts, *head[1:]), lambda: build_record([decode_line(raw)], line, ts)
        )
        return ts

    def _consider_line(self, chunk: Chunk, start: int, text: str, line: int) -> str | None:
        """Hand on a matched one-line record starting at ``start``; its time."""
        head = json_head(text)
        if head is None:
            record = self._timed(build_record([text], line), chunk, start)
            self._scan.consider(record)
            return record.ts
        ts = self._own_or_inherited(head[0], chunk, start)
        self._scan.consider_head((ts, *head[1:]), lambda: build_record([text], line, ts))
        return ts

    def _one_line_records(self, chunk: Chunk) -> bool:
        """True when every line of a chunk is a record of its own: each one, and the line
        after the chunk, starts with a byte no continuation line starts with."""
        data, size = chunk.data, chunk.size
        if not size or data[:1] not in _STARTS_RECORD or _CONTINUED.search(data, 0, size):
            return False
        if chunk.end >= self._range.end:
            return True
        following = data[size : size + 1] or self._scan.data.read(chunk.end, 1)
        return following in _STARTS_RECORD

    def _start_of(self, chunk: Chunk, offset: int, line: int) -> tuple[int, int, list[str], int]:
        """The record start at or before the line at ``offset``: (offset, line, its lines up
        to the one at ``offset``, the offset after that one)."""
        data, floor = self._scan.data, self._range.start
        raw, after = data.line_at(offset, self._range.end, chunk)
        lines = [decode_line(raw)]
        while offset > floor and continues_record(lines[-1]):
            previous = data.line_start_before(offset, floor, chunk)
            raw, _ = data.line_at(previous, offset, chunk)
            lines.append(decode_line(raw))
            offset, line = previous, line - 1
        lines.reverse()
        return offset, line, lines, after

    def _extent(self, chunk: Chunk, offset: int, line: int) -> tuple[int, int, list[str], int, int]:
        """The record holding the line at ``offset``: (its start, its first line number, its
        lines, the offset after its first line, the offset after it)."""
        data, end = self._scan.data, self._range.end
        if self._single:
            raw, position = data.line_at(offset, end, chunk)
            return offset, line, [decode_line(raw)], position, position
        start, first_line, lines, position = self._start_of(chunk, offset, line)
        after_first = data.line_at(start, end, chunk)[1] if start != offset else position
        while position < end:
            raw, following = data.line_at(position, end, chunk)
            if position >= chunk.end and b"\r" in raw[:-1]:
                raise _LoneBreak(start, first_line)
            if raw[:1] in _STARTS_RECORD:
                break
            text = decode_line(raw)
            if not continues_record(text):
                break
            lines.append(text)
            position = following
        return start, first_line, lines, after_first, position

    def _judge(self, chunk: Chunk, offset: int, line: int) -> int:
        """Judge the record holding the line at ``offset``; the offset after that record."""
        start, first_line, lines, after_first, position = self._extent(chunk, offset, line)
        text = lines[0] if len(lines) == 1 else "\n".join(lines)
        if not self._scan.filter.text_matches(text):
            return position
        head = json_head(text) if len(lines) == 1 else None
        if head is not None:
            ts = self._own_or_inherited(head[0], chunk, start)
            self._known = (after_first, ts)
            self._scan.consider_head((ts, *head[1:]), lambda: build_record(lines, first_line, ts))
            return position
        record = self._timed(build_record(lines, first_line), chunk, start)
        self._known = (after_first, record.ts)
        self._scan.consider(record)
        return position

    def _timed(self, record: LineRecord, chunk: Chunk, start: int) -> LineRecord:
        """``record`` (starting at ``start``) with the time it inherits when it has none."""
        if record.ts is not None:
            return record
        inherited = self._inherited(chunk, start)
        return record if inherited is None else evolve(record, ts=inherited)

    def _own_or_inherited(self, own: str | None, chunk: Chunk, start: int) -> str | None:
        """A record's own time, else the one a record starting at ``start`` inherits."""
        return own if own is not None else self._inherited(chunk, start)

    def _inherited(self, chunk: Chunk, start: int) -> str | None:
        """The time a record starting at ``start`` takes when it has none of its own."""
        data = self._scan.data
        known_at, known = self._known
        floor = self._range.start
        offset = start
        while offset > known_at:
            previous = data.line_start_before(offset, known_at, chunk)
            raw, _ = data.line_at(previous, offset, chunk)
            text = decode_line(raw)
            if previous == floor or not continues_record(text):
                moment = record_time(text)
                if moment is not None:
                    return moment
            offset = previous
        return known

    def _read_on_from_chunk(self, chunk: Chunk, line: int) -> None:
        """Read the rest of the range line by line from the record that holds the line
        before ``chunk`` (the last line known to be read right line by line here)."""
        floor = self._range.start
        if chunk.base <= floor:
            self._read_on(chunk, floor, line)
            return
        previous = self._scan.data.line_start_before(chunk.base, floor, chunk)
        start, first_line, _, _ = self._start_of(chunk, previous, line - 1)
        self._read_on(chunk, start, first_line)

    def _read_on(self, chunk: Chunk, start: int, line: int) -> None:
        """Read the rest of the range line by line from the record start at ``start``."""
        rest = ScanRange(start, self._range.end, line, self._inherited(chunk, start))
        LineScan(self._scan, rest, skip_before=self._resume).run()
