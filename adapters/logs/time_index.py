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

An index is used only for the file it was made from: same device, inode, size and
modification time. A file that only grew (same device and inode, larger, and the first and
last 4 KiB of the indexed part unchanged) keeps its index for the indexed part; its last
block and everything after it are read again. Anything else discards it.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Final

from attrs import frozen

from factledger.adapters.logs.file_reader import FileBytes
from factledger.adapters.logs.record_scan import ScanRange
from factledger.domain.logs.matching import RecordFilter

__all__ = ["BLOCK_BYTES", "FileIdentity", "IndexBuilder", "TimeIndex", "TimeIndexCache"]

BLOCK_BYTES: Final = 1 << 20
_EDGE: Final = 4096
_MAX_FILES: Final = 4096


@frozen
class FileIdentity:
    """What tells one version of a file from another."""

    device: int
    inode: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, info: os.stat_result) -> FileIdentity:
        return cls(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


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
    """The blocks of one version of a file, and its first and last bytes."""

    identity: FileIdentity
    blocks: tuple[IndexBlock, ...]
    head: bytes
    tail: bytes

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

    def finish(self, identity: FileIdentity, data: FileBytes) -> TimeIndex:
        """The index of the file the scan read, from its start to ``identity.size``."""
        self._close()
        return TimeIndex(identity, tuple(self._blocks), *_edges(data, identity.size))


def _edges(data: FileBytes, size: int) -> tuple[bytes, bytes]:
    """The first and the last (up to) 4 KiB of a file's first ``size`` bytes."""
    edge = min(_EDGE, size)
    return data.read(0, edge), data.read(size - edge, edge)


class TimeIndexCache:
    """The indexes of the files a backend has read, most recent last (bounded)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._indexes: OrderedDict[str, TimeIndex] = OrderedDict()

    def usable(self, path: str, identity: FileIdentity, data: FileBytes) -> TimeIndex | None:
        """The index of ``path`` when it still describes the file (see the module)."""
        with self._lock:
            index = self._indexes.get(path)
        if index is None or not index.blocks:
            return None
        known = index.identity
        if (known.device, known.inode) != (identity.device, identity.inode):
            return None
        if known.size == identity.size and known.mtime_ns == identity.mtime_ns:
            return index
        if identity.size <= known.size:
            return None
        return index if _edges(data, known.size) == (index.head, index.tail) else None

    def keep(self, path: str, index: TimeIndex) -> None:
        """Remember an index (the oldest is forgotten past the bound)."""
        with self._lock:
            self._indexes[path] = index
            self._indexes.move_to_end(path)
            while len(self._indexes) > _MAX_FILES:
                self._indexes.popitem(last=False)
