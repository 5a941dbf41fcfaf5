"""The embedded log store: every file under one directory (``[logs] dir``).

Files hold JSON lines (``ts``, ``service``, ``level``, ``message`` and any other fields) or
plain text lines with a leading ISO-8601 time and an optional level; continuation lines
(stack frames, ``Caused by:``, tracebacks, private-key bodies) belong to the record before
them. A plain text record's service is the file's (see ``discovery``). A record without its
own time takes the time of the record before it in the same file. Which records match is
``factledger.domain.logs.matching``'s rule.

How a file is read (the answer is the same whichever way, see ``docs/adr/0020``):

* a query with a text term searches the anchor term in raw 4 MiB chunks and judges only the
  records around its hits (``HitScan``);
* a query without one reads every line (``LineScan``) and, read from start to end, leaves a
  time index behind (``TimeIndex``): a later window query over the same file reads only the
  stretches of it that can hold the window;
* a window query without a text term over a file with no index reads line by line but jumps
  over the stretches whose time bounds, read from the raw bytes, lie outside the window
  (``WindowScan``); the bounds are remembered for the next window query.

Nothing is left out in silence: hidden entries, binary and unreadable files, links not
followed, and records that could not be placed are counted in the raw result's
``skipped``. A file that fails part-way counts as unreadable; what was read of it is kept.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from returns.result import Failure, Result, Success

from factledger.adapters.logs.discovery import LogFile, discover
from factledger.adapters.logs.file_reader import BINARY_PROBE_BYTES, FileBytes, open_log_file
from factledger.adapters.logs.file_versions import FileIdentity, FileVersionCache, Remembered
from factledger.adapters.logs.hit_scan import HitScan
from factledger.adapters.logs.line_scan import LineScan
from factledger.adapters.logs.record_scan import FileScan, ScanRange
from factledger.adapters.logs.sampling import MatchCollector
from factledger.adapters.logs.term_search import TermFinder
from factledger.adapters.logs.time_index import IndexBuilder, TimeIndex
from factledger.adapters.logs.window_scan import Cell, WindowScan
from factledger.domain.logs.line_format import LineRecord
from factledger.domain.logs.matching import RecordFilter
from factledger.domain.logs.query import LogQuery
from factledger.domain.logs.skipped import SkipKind
from factledger.domain.tool_result import BackendFailure, BackendFailureKind

__all__ = ["FileLogBackend"]


class _DeadlinePassed(Exception):
    pass


class FileLogBackend:
    """Answers log queries by scanning the files of one directory."""

    def __init__(
        self,
        directory: Path,
        clock: Callable[[], float] = time.monotonic,
        files: Sequence[Path] | None = None,
    ) -> None:
        """Scan every file under ``directory``; or, with ``files``, only those: each is a root
        of its own (a folder is searched like the directory, a file is read whatever its
        name), relative paths taken from ``directory``."""
        self._directory = directory
        self._clock = clock
        self._roots = (directory,) if files is None else tuple(directory / path for path in files)
        self._caches = _Caches()

    def query(
        self,
        query: LogQuery,
        *,
        deadline: float,
        on_file: Callable[[int, int], None] | None = None,
    ) -> Result[str, BackendFailure]:
        """The raw result for a query (see ``factledger.domain.logs.raw_format``);
        ``on_file(done, total)`` is told after each file is read (a progress bar)."""
        if not self._directory.is_dir():
            return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "LOG_DIR_MISSING"))
        clock = self._clock

        def tick() -> None:
            if clock() > deadline:
                raise _DeadlinePassed

        try:
            tick()
            return Success(self._scan(query, tick, on_file))
        except _DeadlinePassed:
            return Failure(BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))
        except OSError:
            return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "LOG_READ_FAILED"))

    def _scan(
        self,
        query: LogQuery,
        tick: Callable[[], None],
        on_file: Callable[[int, int], None] | None = None,
    ) -> str:
        found = discover(self._roots)
        collector = MatchCollector(query)
        collector.skipped.update(found.skipped)
        record_filter = RecordFilter.of(query)
        for file_index, log_file in enumerate(found.files):
            tick()
            _File(self._caches, log_file, file_index, record_filter, collector, tick).read()
            if on_file is not None:
                on_file(file_index + 1, len(found.files))
        return collector.raw(record_filter.start, record_filter.end)


class _File:
    """One file read for one query."""

    def __init__(
        self,
        caches: _Caches,
        log_file: LogFile,
        file_index: int,
        record_filter: RecordFilter,
        collector: MatchCollector,
        tick: Callable[[], None],
    ) -> None:
        self._caches = caches
        self._file = log_file
        self._index = file_index
        self._filter = record_filter
        self._collector = collector
        self._tick = tick

    def read(self) -> None:
        skipped = self._collector.skipped
        opened = open_log_file(self._file.path, follow_links=self._file.given)
        if opened is None:
            skipped[SkipKind.UNREADABLE_FILES.value] += 1
            return
        fd, info = opened
        try:
            data = FileBytes(fd, info.st_size)
            identity = FileIdentity.of(info)
            if b"\x00" in data.read(0, BINARY_PROBE_BYTES):
                skipped[SkipKind.BINARY_FILES.value] += 1
                return
            self._scan(data, identity)
        except OSError:
            skipped[SkipKind.UNREADABLE_FILES.value] += 1
        finally:
            os.close(fd)

    def _unstacked(
        self,
        times: list[str],
        levels: list[str | None],
        build: Callable[[int], tuple[LineRecord, str]],
    ) -> None:
        self._collector.add_unstacked(times, levels, build, self._index, self._file.source)

    def _sink(
        self,
        level: str | None,
        ts: str | None,
        stacked: bool,
        service: str,
        build: Callable[[], LineRecord],
    ) -> None:
        self._collector.add(level, ts, stacked, build, (service, self._index, self._file.source))

    def _scan(self, data: FileBytes, identity: FileIdentity) -> None:
        scan = FileScan(
            data, self._filter, self._file.service, self._sink, self._collector.skipped, self._tick
        )
        scan.unstacked = self._unstacked
        terms = self._filter.terms
        line_breaks = any("\n" in term or "\r" in term for term in terms)
        windowed = self._filter.windowed
        path = self._file.path
        index = self._caches.indexes.usable(path, identity, data) if windowed else None
        if index is not None and not index.value.blocks:
            index = None
        whole = ScanRange(0, data.size, 1, None)
        if terms and not line_breaks:
            finder = TermFinder(terms)
            ranges = (
                [whole]
                if index is None
                else index.value.ranges(self._filter, data.size, index.grown)
            )
            for scan_range in ranges:
                HitScan(scan, finder, scan_range).run()
        elif index is not None:
            self._line_scan_with(index, scan, identity, data)
        elif windowed:
            remembered = self._caches.grids.usable(path, identity, data)
            known = [] if remembered is None else list(remembered.value)
            if remembered is not None and remembered.grown:
                known = known[:-1]
            WindowScan(scan, known).run()
            self._caches.grids.keep(path, identity, data, known)
        else:
            builder = IndexBuilder()
            LineScan(scan, whole, seen=builder).run()
            self._caches.indexes.keep(path, identity, data, builder.finish())

    def _line_scan_with(
        self,
        index: Remembered[TimeIndex],
        scan: FileScan,
        identity: FileIdentity,
        data: FileBytes,
    ) -> None:
        """Read the stretches the index names; a grown file's new part extends the index."""
        blocks = index.value.blocks
        builder = IndexBuilder(floor=blocks[-1].start) if index.grown else None
        for scan_range in index.value.ranges(self._filter, data.size, index.grown):
            tail = index.grown and scan_range.end == data.size
            LineScan(scan, scan_range, seen=builder if tail else None).run()
        if builder is not None:
            extended = blocks[:-1] + builder.finish().blocks
            self._caches.indexes.keep(self._file.path, identity, data, TimeIndex(extended))


class _Caches:
    """What a backend remembers of the files it has read (see ``file_versions``)."""

    def __init__(self) -> None:
        self.indexes: FileVersionCache[TimeIndex] = FileVersionCache()
        """Time indexes, from reading a whole file line by line."""
        self.grids: FileVersionCache[list[Cell]] = FileVersionCache()
        """Grids of time bounds, from window scans."""
