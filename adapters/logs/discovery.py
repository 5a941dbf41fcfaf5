"""Which files a logs query reads, and what it leaves out, counted.

A root (the configured folder, or each path given on the command line) is always read,
whatever its name or the names of the folders above it: ``.factledger/demo/logs`` is read
like any folder. Below a root:

* a file or folder whose name starts with a dot is not read and is counted as a hidden
  entry (a folder once; an empty file is not counted: it holds nothing);
* a symbolic link is never followed: one that leads to a file or folder inside the root is
  not counted (its target is read under its own name), one that leads outside the root or
  nowhere is counted;
* an entry that is no regular file or folder (a pipe, a socket, a device), or a folder that
  cannot be listed, is counted as unreadable.

Files come in path order (folders' contents where their name sorts), each file once even
when two roots hold it. A plain-text record's service is its file's: the first folder
under the root when the file is in one, else the file name up to its first dot.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from attrs import frozen

from factledger.domain.logs.skipped import SkipKind

__all__ = ["Discovery", "LogFile", "discover"]


@frozen
class LogFile:
    """One file to read."""

    path: str
    """Where it is (as the root was given, joined with the names below it)."""
    source: str
    """Its path relative to its root, ``/``-separated (a given file: its name)."""
    service: str
    """The service of its plain-text records."""
    given: bool = False
    """True for a file given as a root (read even through a link)."""


@frozen
class Discovery:
    """The files to read, in order, and what was left out."""

    files: tuple[LogFile, ...]
    """Files to read."""
    skipped: dict[str, int]
    """Entries left out, per ``SkipKind`` value."""


def discover(roots: Sequence[Path]) -> Discovery:
    """The files under ``roots`` (folders searched, files read as they are)."""
    walker = _Walker()
    for root in roots:
        walker.root(root)
    return Discovery(tuple(walker.files), dict(walker.skipped))


class _Walker:
    def __init__(self) -> None:
        self.files: list[LogFile] = []
        self.skipped: Counter[str] = Counter()
        self._seen: set[str] = set()

    def root(self, root: Path) -> None:
        path = os.fspath(root)
        if os.path.isdir(path):
            self._folder(path, (), os.path.realpath(path))
        else:
            name = _printable(os.path.basename(path))
            self._add(LogFile(path, name, name.split(".", 1)[0], given=True))

    def _add(self, log_file: LogFile) -> None:
        real = os.path.realpath(log_file.path)
        if real in self._seen:
            return
        self._seen.add(real)
        self.files.append(log_file)

    def _folder(self, path: str, parts: tuple[str, ...], real_root: str) -> None:
        try:
            with os.scandir(path) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            self.skipped[SkipKind.UNREADABLE_FILES.value] += 1
            return
        for entry in entries:
            self._entry(entry, parts, real_root)

    def _entry(self, entry: os.DirEntry[str], parts: tuple[str, ...], real_root: str) -> None:
        try:
            mode = entry.stat(follow_symlinks=False).st_mode
        except OSError:
            self.skipped[SkipKind.UNREADABLE_FILES.value] += 1
            return
        if entry.name.startswith("."):
            if not (stat.S_ISREG(mode) and _is_empty(entry)):
                self.skipped[SkipKind.HIDDEN_ENTRIES.value] += 1
            return
        if stat.S_ISLNK(mode):
            if not _leads_inside(entry.path, real_root):
                self.skipped[SkipKind.SYMLINKS.value] += 1
            return
        names = (*parts, _printable(entry.name))
        if stat.S_ISDIR(mode):
            self._folder(entry.path, names, real_root)
        elif stat.S_ISREG(mode):
            service = names[0] if len(names) > 1 else names[0].split(".", 1)[0]
            self._add(LogFile(entry.path, "/".join(names), service))
        else:
            self.skipped[SkipKind.UNREADABLE_FILES.value] += 1


def _is_empty(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.stat(follow_symlinks=False).st_size == 0
    except OSError:
        return False


def _leads_inside(path: str, real_root: str) -> bool:
    """True when a link resolves to an existing entry inside the root."""
    target = os.path.realpath(path)
    if not os.path.exists(target):
        return False
    try:
        return os.path.commonpath([target, real_root]) == real_root
    except ValueError:
        return False


def _printable(name: str) -> str:
    """A file name as valid text (bytes that are no UTF-8 become U+FFFD)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
