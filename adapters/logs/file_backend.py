"""The embedded log store: every file under one directory (``[logs] dir``).

Files hold JSON lines (``ts``, ``service``, ``level``, ``message`` and any other fields) or
plain text lines with a leading ISO-8601 time and an optional level; continuation lines
(stack frames, ``Caused by:``, tracebacks, private-key bodies) belong to the record before
them. A plain text record's service is the file's: the first folder under the directory
when the file is in one, else the file name up to its first dot (``payments.log`` →
``payments``). A record without its own time takes the time of the record before it in the
same file.

When more records match than the limit allows, the returned ones are spread over the whole
scan (every 2nd, 4th, … match), errors and warnings kept apart so a burst of them is never
thinned away by volume; the matched count and level counts stay exact.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final, TextIO

from returns.result import Failure, Result, Success

from factledger.domain.json_types import JsonObject
from factledger.domain.logs.levels import LogLevel
from factledger.domain.logs.line_format import LineRecord, assemble_records
from factledger.domain.logs.query import LogQuery, query_terms
from factledger.domain.logs.raw_format import (
    UNKNOWN_LEVEL,
    RawHeader,
    encode_raw,
    query_header,
)
from factledger.domain.logs.timestamps import format_instant
from factledger.domain.tool_result import BackendFailure, BackendFailureKind

__all__ = ["FileLogBackend"]

_CHECK_EVERY: Final = 512
_BINARY_PROBE: Final = 8192
_SEVERE: Final = frozenset(
    {LogLevel.WARN.value, LogLevel.ERROR.value, LogLevel.CRITICAL.value, LogLevel.FATAL.value}
)


class _DeadlinePassed(Exception):
    pass


class _Thinned:
    """Keeps every ``stride``-th item offered, doubling the stride when full."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1, capacity)
        self.stride = 1
        self.offered = 0
        self.items: list[tuple[str, int, int, JsonObject]] = []

    def offer(self, item: tuple[str, int, int, JsonObject]) -> None:
        if self.offered % self.stride == 0:
            self.items.append(item)
            if len(self.items) > self.capacity:
                self.items = self.items[::2]
                self.stride *= 2
        self.offered += 1


class FileLogBackend:
    """Answers log queries by scanning the files of one directory."""

    def __init__(
        self,
        directory: Path,
        clock: Callable[[], float] = time.monotonic,
        files: Sequence[Path] | None = None,
    ) -> None:
        """Scan every file under ``directory``; or, with ``files``, only those files and the
        files under those folders (paths relative to ``directory`` or absolute)."""
        self._directory = directory
        self._clock = clock
        self._only = None if files is None else tuple(directory / path for path in files)

    def query(self, query: LogQuery, *, deadline: float) -> Result[str, BackendFailure]:
        """The raw result for a query (see ``factledger.domain.logs.raw_format``)."""
        if not self._directory.is_dir():
            return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "LOG_DIR_MISSING"))
        try:
            return Success(self._scan(query, deadline))
        except _DeadlinePassed:
            return Failure(BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))
        except OSError:
            return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "LOG_READ_FAILED"))

    def _scan(self, query: LogQuery, deadline: float) -> str:
        terms = query_terms(query.text)
        start = None if query.start is None else format_instant(query.start)
        end = None if query.end is None else format_instant(query.end)
        severe = _Thinned(query.limit // 2)
        other = _Thinned(query.limit)
        matched = 0
        levels: Counter[str] = Counter()
        first: str | None = None
        last: str | None = None
        for file_index, path in enumerate(self._files(deadline)):
            relative = _relative(path, self._directory)
            file_service = _service_of(relative)
            with path.open(encoding="utf-8", errors="replace") as handle:
                for record in assemble_records(self._lines(handle, deadline)):
                    if not record.text.strip():
                        continue
                    service = record.service if record.service is not None else file_service
                    if query.service is not None and service != query.service:
                        continue
                    if (start is not None or end is not None) and (
                        record.ts is None
                        or (start is not None and record.ts < start)
                        or (end is not None and record.ts > end)
                    ):
                        continue
                    if terms:
                        text = record.text.lower()
                        if not all(term in text for term in terms):
                            continue
                    matched += 1
                    levels[record.level or UNKNOWN_LEVEL] += 1
                    if record.ts is not None:
                        first = record.ts if first is None or record.ts < first else first
                        last = record.ts if last is None or record.ts > last else last
                    item = (
                        record.ts or "",
                        file_index,
                        record.first_line,
                        _raw_record(record, service, relative.as_posix()),
                    )
                    if record.level in _SEVERE or record.stack:
                        severe.offer(item)
                    else:
                        other.offer(item)
        kept_severe = severe.items
        room = max(0, query.limit - len(kept_severe))
        kept_other = other.items
        if len(kept_other) > room:
            step = len(kept_other) / room if room else 0
            kept_other = [kept_other[int(i * step)] for i in range(room)] if room else []
        chosen = sorted(kept_severe + kept_other, key=lambda item: item[:3])
        header = RawHeader(
            query=query_header(query),
            window_start=start if start is not None else first,
            window_end=end if end is not None else last,
            matched_count=matched,
            returned_count=len(chosen),
            limit_reached=matched > len(chosen),
            level_counts=dict(sorted(levels.items())),
        )
        return encode_raw(header, [item[3] for item in chosen])

    def _candidates(self) -> list[Path]:
        if self._only is None:
            return sorted(self._directory.rglob("*"))
        found: list[Path] = []
        for path in self._only:
            found.extend(sorted(path.rglob("*")) if path.is_dir() else [path])
        return found

    def _files(self, deadline: float) -> Iterator[Path]:
        for path in self._candidates():
            if self._clock() > deadline:
                raise _DeadlinePassed
            relative = _relative(path, self._directory)
            if any(part.startswith(".") and part not in (".", "..") for part in relative.parts):
                continue
            if not path.is_file() or path.is_symlink():
                continue
            with path.open("rb") as probe:
                if b"\x00" in probe.read(_BINARY_PROBE):
                    continue
            yield path

    def _lines(self, handle: TextIO, deadline: float) -> Iterator[str]:
        clock = self._clock
        for count, line in enumerate(handle):
            if count % _CHECK_EVERY == 0 and clock() > deadline:
                raise _DeadlinePassed
            yield line


def _relative(path: Path, directory: Path) -> Path:
    try:
        return path.relative_to(directory)
    except ValueError:
        return Path(path.name)


def _service_of(relative: Path) -> str:
    if len(relative.parts) > 1:
        return relative.parts[0]
    return relative.name.split(".", 1)[0]


def _raw_record(record: LineRecord, service: str, source: str) -> JsonObject:
    return {
        "ts": record.ts,
        "service": service,
        "level": record.level,
        "message": record.message,
        "fields": record.fields,
        "stack": list(record.stack),
        "source": source,
        "line": record.first_line,
    }
