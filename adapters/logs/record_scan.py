"""What every scan of one file shares: the bytes it reads, the filter it applies, and where
matched records and the records it could not place go."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Protocol

from attrs import frozen

from factledger.adapters.logs.file_reader import Chunk, FileBytes
from factledger.domain.logs.line_format import JsonHead, LineRecord
from factledger.domain.logs.matching import RecordFilter, Verdict

__all__ = [
    "FileScan",
    "MatchSink",
    "ScanRange",
    "UnstackedSink",
    "decode_line",
    "needs_line_by_line",
]


class MatchSink(Protocol):
    """Where a scan's matched records go: what is counted of every one, and the record
    itself built only when it is kept."""

    def __call__(
        self,
        level: str | None,
        ts: str | None,
        stacked: bool,
        service: str,
        build: Callable[[], LineRecord],
    ) -> None:
        """Count one matched record; call ``build`` only to keep it."""
        ...


UnstackedSink = Callable[
    [list[str], list["str | None"], Callable[[int], tuple[LineRecord, str]]], None
]
"""Counts a run of matched records (their times and levels, in order); the callable makes
the record at an index, and names its service, only when it is kept."""


@frozen
class ScanRange:
    """A stretch of a file that starts and ends on a record boundary."""

    start: int
    """Offset of its first line (a record starts there)."""
    end: int
    """Offset just after its last line (a record starts there, or the file ends)."""
    line: int
    """Line number of its first line, from 1."""
    inherited: str | None
    """The time a record starting at ``start`` without one of its own takes."""


class FileScan:
    """One file, one query: reading, judging and handing on records."""

    def __init__(
        self,
        data: FileBytes,
        record_filter: RecordFilter,
        service: str,
        sink: MatchSink,
        skipped: Counter[str],
        tick: Callable[[], None],
    ) -> None:
        self.data = data
        """The file's bytes."""
        self.filter = record_filter
        """The query's filters."""
        self.service = service
        """The service of the file's plain-text records."""
        self.tick = tick
        """Called often; raises when the query's deadline has passed."""
        self._sink = sink
        self.unstacked: UnstackedSink | None = None
        """Where a run of timed matched records without a stack goes at once, when the
        query has neither a service nor a window (every such record matches)."""
        self._skipped = skipped

    def consider(self, record: LineRecord) -> None:
        """Judge a record whose text matched, and hand it on or count it."""
        verdict = self.filter.judge(record, self.service)
        if verdict is Verdict.MATCHED:
            service = record.service if record.service is not None else self.service
            self._sink(record.level, record.ts, bool(record.stack), service, lambda: record)
        elif verdict is not Verdict.EXCLUDED:
            self._skipped[verdict.value] += 1

    def consider_head(self, head: JsonHead, build: Callable[[], LineRecord]) -> None:
        """``consider`` for a one-line JSON record known by its head (``json_head``, its
        time already inherited when it had none); ``build`` makes the record if kept."""
        ts, level, own_service, stacked = head
        service = own_service if own_service is not None else self.service
        verdict = self.filter.judge_parsed(service, ts)
        if verdict is Verdict.MATCHED:
            self._sink(level, ts, stacked, service, build)
        elif verdict is not Verdict.EXCLUDED:
            self._skipped[verdict.value] += 1


def decode_line(raw: bytes) -> str:
    """A line's bytes (without ``\\n``) as text-mode reading gives it, without its break."""
    return raw.decode("utf-8", "replace").rstrip("\r\n")


def needs_line_by_line(chunk: Chunk) -> bool:
    """True when a chunk cannot be searched line by line on its own: it holds a lone ``\\r``
    (a line break to text-mode reading) or a private-key block marker (which turns the
    lines after it into continuation lines whatever they look like)."""
    data, size = chunk.data, chunk.size
    if data.find(b"\r", 0, size) >= 0 and data.count(b"\r", 0, size) != data.count(
        b"\r\n", 0, size
    ):
        return True
    return data.find(b"-----BEGIN", 0, size) >= 0
