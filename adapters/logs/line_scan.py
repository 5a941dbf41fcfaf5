"""The scan that reads every line of a range, in order, with the reference assembler's rule
(``RecordSplitter``): used when a query has no text term, and for the rest of a file once a
text scan meets a private-key block or a lone ``\\r``.

Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``, as text-mode reading splits them. A
record whose text does not match is never parsed beyond its time; under a window, a record
whose time lies outside it is not parsed further either.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Final, Protocol

from attrs import frozen

from factledger.adapters.logs.file_reader import Chunk
from factledger.adapters.logs.record_scan import FileScan, ScanRange
from factledger.domain.logs.line_format import RecordSplitter, build_record, record_time

__all__ = ["LineScan", "RecordSeen", "Stop"]

_BREAK: Final = re.compile(rb"\r\n|\r|\n")
_TICK_EVERY: Final = 1024


class RecordSeen(Protocol):
    """Told about every record a line scan reads (the time index listens)."""

    def record(self, start: int, line: int, ts: str | None, inherited: str | None) -> None:
        """A record starts at offset ``start`` (line ``line``) with time ``ts`` (its own or
        inherited; None when it has none) and would inherit ``inherited``."""
        ...


@frozen
class Stop:
    """Where a line scan stopped: a record start (offset, line number) and the time the
    record there would inherit."""

    offset: int
    line: int
    inherited: str | None


class LineScan:
    """Reads one range line by line."""

    def __init__(
        self,
        scan: FileScan,
        scan_range: ScanRange,
        skip_before: int = 0,
        seen: RecordSeen | None = None,
        stop: Callable[[int, str | None], bool] | None = None,
        chunk_bytes: int | None = None,
    ) -> None:
        """Records starting before ``skip_before`` were judged already: they are read for
        their time only. ``stop`` is asked at every record start after the first (offset,
        inherited time): true ends the scan there, before that record. ``chunk_bytes``: how
        much to read at once (the file reader's default when None)."""
        self._scan = scan
        self._range = scan_range
        self._skip_before = skip_before
        self._seen = seen
        self._stop = stop
        self._chunk_bytes = chunk_bytes
        self._count = 0

    def run(self) -> Stop | None:
        """Scan the range; where it stopped, or None when it read it all."""
        splitter = RecordSplitter()
        pending: list[str] = []
        start, first = self._range.start, self._range.line
        last_ts = self._range.inherited
        number = self._range.line
        position, end = self._range.start, self._range.end
        while position < end:
            self._scan.tick()
            chunk = self._scan.data.chunk(position, end, self._chunk_bytes)
            if not chunk.size:
                break
            for line, offset in _lines(chunk):
                if pending and not splitter.starts_record(line):
                    pending.append(line)
                    number += 1
                    continue
                if pending:
                    last_ts = self._finish(pending, start, first, last_ts)
                    if self._stop is not None and self._stop(offset, last_ts):
                        return Stop(offset, number, last_ts)
                else:
                    splitter.starts_record(line)
                pending, start, first = [line], offset, number
                number += 1
            position = chunk.end
        if pending:
            self._finish(pending, start, first, last_ts)
        return None

    def _finish(
        self, lines: list[str], start: int, first: int, inherited: str | None
    ) -> str | None:
        """Judge one record; the time the next record would inherit."""
        self._count += 1
        if self._count % _TICK_EVERY == 0:
            self._scan.tick()
        record_filter = self._scan.filter
        if start < self._skip_before or not record_filter.text_matches("\n".join(lines)):
            own = record_time(lines[0])
            ts = own if own is not None else inherited
            if self._seen is not None:
                self._seen.record(start, first, ts, inherited)
            return ts
        if record_filter.windowed:
            own = record_time(lines[0])
            ts = own if own is not None else inherited
            if self._seen is not None:
                self._seen.record(start, first, ts, inherited)
            if ts is not None and not record_filter.in_window(ts):
                return ts
        record = build_record(lines, first, inherited)
        if self._seen is not None and not record_filter.windowed:
            self._seen.record(start, first, record.ts, inherited)
        self._scan.consider(record)
        return record.ts


def _lines(chunk: Chunk) -> Iterator[tuple[str, int]]:
    """Each line of a chunk (text, without its break) and its offset."""
    data, size, offset = chunk.data, chunk.size, chunk.base
    if data.find(b"\r", 0, size) < 0:
        raw_lines = data[:size].split(b"\n")
        texts = data[:size].decode("utf-8", "replace").split("\n")
        if data[size - 1 : size] == b"\n":
            raw_lines.pop()
            texts.pop()
        for raw, text in zip(raw_lines, texts, strict=True):
            yield text, offset
            offset += len(raw) + 1
        return
    position = 0
    for found in _BREAK.finditer(data, 0, size):
        yield data[position : found.start()].decode("utf-8", "replace"), offset + position
        position = found.end()
    if position < size:
        yield data[position:size].decode("utf-8", "replace"), offset + position
