"""What a backend remembers about a file it has read, and when it may use it again.

A remembered value (a time index, a grid of time bounds) describes one version of a file: the
same device, inode, size and modification time. A file that only grew (same device and
inode, larger, and the first and last 4 KiB of the part remembered unchanged) keeps its
value for that part: a log being appended to is the common case. Anything else forgets it.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Final, Generic, TypeVar

from attrs import frozen

from factledger.adapters.logs.file_reader import FileBytes

__all__ = ["FileIdentity", "FileVersionCache", "Remembered"]

_EDGE: Final = 4096
_MAX_FILES: Final = 4096

Value = TypeVar("Value")


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
class Remembered(Generic[Value]):
    """A value that still describes (the first ``size`` bytes of) a file."""

    value: Value
    size: int
    """The file's size when the value was made."""
    grown: bool
    """True when the file has grown since: only its first ``size`` bytes are described."""


@frozen
class _Entry(Generic[Value]):
    identity: FileIdentity
    head: bytes
    tail: bytes
    value: Value


def _edges(data: FileBytes, size: int) -> tuple[bytes, bytes]:
    """The first and the last (up to) 4 KiB of a file's first ``size`` bytes."""
    edge = min(_EDGE, size)
    return data.read(0, edge), data.read(size - edge, edge)


class FileVersionCache(Generic[Value]):
    """Values per file path, most recent last, bounded; safe to share between threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, _Entry[Value]] = OrderedDict()

    def usable(
        self, path: str, identity: FileIdentity, data: FileBytes
    ) -> Remembered[Value] | None:
        """The value remembered for ``path`` when it still describes the file."""
        with self._lock:
            entry = self._entries.get(path)
        if entry is None:
            return None
        known = entry.identity
        if (known.device, known.inode) != (identity.device, identity.inode):
            return None
        if known.size == identity.size and known.mtime_ns == identity.mtime_ns:
            return Remembered(entry.value, known.size, grown=False)
        if identity.size <= known.size or _edges(data, known.size) != (entry.head, entry.tail):
            return None
        return Remembered(entry.value, known.size, grown=True)

    def keep(self, path: str, identity: FileIdentity, data: FileBytes, value: Value) -> None:
        """Remember a value made from the file as ``identity`` describes it."""
        entry = _Entry(identity, *_edges(data, identity.size), value)
        with self._lock:
            self._entries[path] = entry
            self._entries.move_to_end(path)
            while len(self._entries) > _MAX_FILES:
                self._entries.popitem(last=False)
