"""Per-file time index: where each stretch of a file lies in time, so a window query reads
only the stretches that can hold a record of the window.

Whenever a file is read line by line from its start to its end (a query without a text
term), the scan notes every record's time; the file is cut into blocks of about
``BLOCK_BYTES`` at record starts, and each block keeps its offset, line number, the time a
record at its start inherits, the least and greatest record time in it, and whether a record
in it has no time at all. A later window query reads only the blocks whose time range meets
the window (and those holding untimed records, which it must count): on a time-ordered file,
one stretch around the window; on an unordered one, exactly the blocks that matter. The
answer is the same as reading everything, records and counts alike.

An index is used only for the version of the file it was made from (``file_versions``); a
file that only grew keeps it for the indexed part, and its last block and everything after
it are read again.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from factledger.adapters.logs.record_scan import ScanRange
from factledger.domain.logs.matching import RecordFilter

__all__ = ["BLOCK_BYTES", "IndexBlock", "IndexBuilder", "TimeIndex"]

BLOCK_BYTES: Final = 1 << 20


@frozen
class IndexBlock:
    """One stretch of a file, starting at a record."""

    start: int
    line: int
    inherited: str | None
    low: str | None
    high: str | None
    untimed: bool


@frozen
class TimeIndex:
    """The blocks of one version of a file."""

    blocks: tuple[IndexBlock, ...]

    def ranges(self, record_filter: RecordFilter, size: int, grown: bool) -> list[ScanRange]:
        """The stretches a window query must read, merged, in file order (with ``grown``,
        the last block is read to ``size`` whatever its times)."""
        chosen: list[ScanRange] = []
        blocks = self.blocks
        for index, block in enumerate(blocks):
            last = index == len(blocks) - 1
            end = size if last else blocks[index + 1].start
            if not (block.untimed or (grown and last) or _meets(block, record_filter)):
                continue
            if chosen and chosen[-1].end == block.start:
                previous = chosen.pop()
                chosen.append(ScanRange(previous.start, end, previous.line, previous.inherited))
            else:
                chosen.append(ScanRange(block.start, end, block.line, block.inherited))
        return chosen


def _meets(block: IndexBlock, record_filter: RecordFilter) -> bool:
    if block.low is None or block.high is None:
        return False
    start, end = record_filter.start, record_filter.end
    return (start is None or block.high >= start) and (end is None or block.low <= end)


class IndexBuilder:
    """Collects a line scan's records into blocks (``RecordSeen``)."""

    def __init__(self, floor: int = 0) -> None:
        """Records starting before ``floor`` are not indexed."""
        self._floor = floor
        self._blocks: list[IndexBlock] = []
        self._open: tuple[int, int, str | None] | None = None
        self._low: str | None = None
        self._high: str | None = None
        self._untimed = False

    def record(self, start: int, line: int, ts: str | None, inherited: str | None) -> None:
        if start < self._floor:
            return
        if self._open is None or start - self._open[0] >= BLOCK_BYTES:
            self._close()
            self._open = (start, line, inherited)
        if ts is None:
            self._untimed = True
        else:
            if self._low is None or ts < self._low:
                self._low = ts
            if self._high is None or ts > self._high:
                self._high = ts

    def _close(self) -> None:
        if self._open is not None:
            start, line, inherited = self._open
            block = IndexBlock(start, line, inherited, self._low, self._high, self._untimed)
            self._blocks.append(block)
        self._open = None
        self._low = self._high = None
        self._untimed = False

    def finish(self) -> TimeIndex:
        """The index of what the scan read."""
        self._close()
        return TimeIndex(tuple(self._blocks))
