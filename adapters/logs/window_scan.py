"""The scan of a window query without a text term over a file with no time index yet:
read line by line, but jump over the chunks whose time bounds (``time_bounds``) lie outside
the window.

A jump is taken only at a record start where the time the next records would inherit is
itself known and outside the window, so that every record in the chunks jumped over has a
time outside it: its own (bounded by the chunk's bounds) or one inherited from a record
outside it. Reading resumes at the record that holds the first line of the next chunk that
may hold the window; the records there inherit a time outside the window until their own.
The answer is the one reading every line gives; the chunks jumped over are only counted for
their line breaks.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from factledger.adapters.logs.file_reader import FileBytes, line_breaks
from factledger.adapters.logs.line_scan import LineScan, Stop
from factledger.adapters.logs.record_scan import FileScan, ScanRange, decode_line
from factledger.adapters.logs.time_bounds import ChunkBounds, bounds_of, skippable
from factledger.domain.logs.line_format import continues_record

__all__ = ["GRID_BYTES", "Cell", "WindowScan"]

GRID_BYTES: Final = 1 << 20
"""Bytes per cell of the bounds grid (cut at a line break)."""
_READ_BYTES: Final = 64 << 10
"""Bytes the line scan reads at once (it may stop early in what it read)."""


@frozen
class Cell:
    """One stretch of a file, cut at line breaks: its line breaks and its time bounds."""

    start: int
    end: int
    newlines: int
    bounds: ChunkBounds


class _Grid:
    """The file cut into cells, computed in order as far as asked (and as far as known)."""

    def __init__(self, scan: FileScan, known: list[Cell]) -> None:
        self._scan = scan
        self.cells = known
        self._skippable: dict[int, bool] = {}

    def skippable(self, index: int) -> bool:
        """True when no record of the cell can lie in the window."""
        found = self._skippable.get(index)
        if found is None:
            found = self._skippable[index] = skippable(self.cells[index].bounds, self._scan.filter)
        return found

    def cell_at(self, offset: int) -> int | None:
        """The index of the chunk holding ``offset`` (None past the end of the file)."""
        data = self._scan.data
        while not self.cells or self.cells[-1].end <= offset:
            start = self.cells[-1].end if self.cells else 0
            if start >= data.size:
                return None
            self._scan.tick()
            chunk = data.chunk(start, data.size, want=GRID_BYTES)
            newlines = line_breaks(chunk.data)
            self.cells.append(Cell(chunk.base, chunk.end, newlines, bounds_of(chunk, newlines)))
        low, high = 0, len(self.cells) - 1
        while low < high:
            middle = (low + high) // 2
            if self.cells[middle].end <= offset:
                low = middle + 1
            else:
                high = middle
        return low


class WindowScan:
    """Reads a file for a window query, jumping over chunks outside the window."""

    def __init__(self, scan: FileScan, known: list[Cell]) -> None:
        """``known``: the first cells of the file's grid, when already computed (the list
        is extended in place as far as the scan reads)."""
        self._scan = scan
        self._grid = _Grid(scan, known)
        self._stop_from = 0

    def run(self) -> None:
        """Scan the whole file."""
        data = self._scan.data
        scan_range: ScanRange | None = ScanRange(0, data.size, 1, None)
        while scan_range is not None:
            scan = LineScan(self._scan, scan_range, stop=self._may_stop, chunk_bytes=_READ_BYTES)
            stop = scan.run()
            scan_range = None if stop is None else self._resume(stop, data)

    def _may_stop(self, offset: int, inherited: str | None) -> bool:
        if offset < self._stop_from or inherited is None:
            return False
        if self._scan.filter.in_window(inherited):
            return False
        cell = self._grid.cell_at(offset)
        return cell is not None and self._grid.skippable(cell)

    def _resume(self, stop: Stop, data: FileBytes) -> ScanRange | None:
        """Where reading resumes after the chunks that can be skipped from ``stop``."""
        grid = self._grid
        index = grid.cell_at(stop.offset)
        assert index is not None
        here = grid.cells[index]
        line = (
            stop.line + here.newlines - line_breaks(data.read(here.start, stop.offset - here.start))
        )
        index += 1
        while True:
            if grid.cell_at(here.end) is None:
                return None
            here = grid.cells[index]
            if not grid.skippable(index):
                break
            line += here.newlines
            index += 1
        start, line = self._record_start(data, here.start, line, stop.offset)
        self._stop_from = here.end
        return ScanRange(start, data.size, line, stop.inherited)

    def _record_start(self, data: FileBytes, offset: int, line: int, floor: int) -> tuple[int, int]:
        """The start (and line number) of the record holding the line just before
        ``offset`` (``offset`` itself when it is ``floor``): that line lies in a chunk that
        was skipped, so it reads right on its own."""
        if offset <= floor:
            return floor, line
        empty = data.chunk(offset, offset)
        offset = data.line_start_before(offset, floor, empty)
        line -= 1
        while offset > floor:
            raw, _ = data.line_at(offset, data.size, empty)
            if not continues_record(decode_line(raw)):
                break
            offset = data.line_start_before(offset, floor, empty)
            line -= 1
        return offset, line
