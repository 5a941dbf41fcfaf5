"""Reading one log file as bytes: positioned reads (never a memory map, which a file
truncated under it would turn into a crash), chunks cut at line breaks, and single lines
before or after an offset.

Lines end at ``\\n``; the scans that read lines this way first make sure a region holds no
lone ``\\r`` (which text-mode reading, the reference, also takes as a line break).
"""

from __future__ import annotations

import os
import stat
from typing import Final

__all__ = [
    "BINARY_PROBE_BYTES",
    "CHUNK_BYTES",
    "Chunk",
    "FileBytes",
    "line_breaks",
    "open_log_file",
]

CHUNK_BYTES: Final = 4 << 20
"""Bytes read and searched at once (a line longer than this makes its chunk longer)."""
BINARY_PROBE_BYTES: Final = 8192
"""A file whose first bytes hold a NUL byte is binary."""
_STEP: Final = 64 << 10
_FIRST_STEP: Final = 512
"""Single lines are read outside a chunk 512 bytes first, doubling up to 64 KiB."""


def line_breaks(data: bytes) -> int:
    """How many line breaks ``data`` holds; deleting them is several times faster than
    ``count`` on long texts."""
    return len(data) - len(data.replace(b"\n", b""))


class Chunk:
    """Bytes of a file from ``base``: the first ``size`` of ``data`` end at a line break (or
    at the end of the region read); ``data`` may hold a few bytes more, never a line break."""

    __slots__ = ("base", "data", "size")

    def __init__(self, base: int, data: bytes, size: int) -> None:
        self.base = base
        self.data = data
        self.size = size

    @property
    def end(self) -> int:
        """The file offset just after the chunk."""
        return self.base + self.size


class FileBytes:
    """Positioned reads of one open file."""

    def __init__(self, fd: int, size: int) -> None:
        self._fd = fd
        self.size = size
        """The file's size when it was opened (bytes appended later are not read)."""

    def read(self, offset: int, length: int) -> bytes:
        """Up to ``length`` bytes at ``offset`` (fewer at the end of the file)."""
        length = max(0, min(length, self.size - offset))
        data = os.pread(self._fd, length, offset)
        if len(data) == length or not data:
            return data
        parts = [data]
        done = len(data)
        while done < length:
            more = os.pread(self._fd, length - done, offset + done)
            if not more:
                break
            parts.append(more)
            done += len(more)
        return b"".join(parts)

    def chunk(self, offset: int, end: int, want: int | None = None) -> Chunk:
        """The bytes from ``offset`` up to the last line break before ``offset + want``
        (``CHUNK_BYTES`` by default; longer when one line is longer), never past ``end``."""
        data = self.read(offset, min(CHUNK_BYTES if want is None else want, end - offset))
        if offset + len(data) >= end or not data:
            return Chunk(offset, data, len(data))
        cut = data.rfind(b"\n")
        while cut < 0:
            more = self.read(offset + len(data), min(CHUNK_BYTES, end - offset - len(data)))
            if not more:
                return Chunk(offset, data, len(data))
            data += more
            if b"\n" in more:
                cut = data.rfind(b"\n")
            elif offset + len(data) >= end:
                return Chunk(offset, data, len(data))
        return Chunk(offset, data, cut + 1)

    def line_start_before(self, offset: int, floor: int, chunk: Chunk) -> int:
        """The start of the line that ends just before ``offset`` (the search stops at
        ``floor``, itself a line start)."""
        stop = offset - 1
        if chunk.base < stop <= chunk.end:
            low = max(floor, chunk.base)
            found = chunk.data.rfind(b"\n", low - chunk.base, stop - chunk.base)
            if found >= 0:
                return chunk.base + found + 1
            if low == floor:
                return floor
            stop = chunk.base
        step = _FIRST_STEP
        while stop > floor:
            low = max(floor, stop - step)
            found = self.read(low, stop - low).rfind(b"\n")
            if found >= 0:
                return low + found + 1
            stop = low
            step = min(step * 2, _STEP)
        return floor

    def line_at(self, offset: int, limit: int, chunk: Chunk) -> tuple[bytes, int]:
        """The line starting at ``offset`` without its ``\\n``, and the offset after it
        (never past ``limit``)."""
        if chunk.base <= offset < chunk.end:
            start = offset - chunk.base
            found = chunk.data.find(b"\n", start, chunk.size)
            if found >= 0:
                return chunk.data[start:found], chunk.base + found + 1
            if chunk.end >= limit:
                return chunk.data[start : chunk.size], chunk.end
        parts: list[bytes] = []
        position = offset
        step = _FIRST_STEP
        while position < limit:
            block = self.read(position, min(step, limit - position))
            if not block:
                break
            found = block.find(b"\n")
            if found >= 0:
                parts.append(block[:found])
                return b"".join(parts), position + found + 1
            parts.append(block)
            position += len(block)
            step = min(step * 2, _STEP)
        return b"".join(parts), position


def open_log_file(path: str, follow_links: bool) -> tuple[int, os.stat_result] | None:
    """An open descriptor of a regular file and its status, or None when it cannot be opened
    or is no regular file (it is never opened in a way that could block; with
    ``follow_links`` false, a file replaced by a link since it was listed is refused)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
    except OSError:
        os.close(fd)
        return None
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return None
    return fd, info
