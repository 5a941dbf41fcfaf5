"""The reference matcher: the file backend's scan as it was before the byte-level scan, kept
as the oracle the fast scan must agree with (same records, same counts, same order).

It reads every file line by line in text mode, assembles every record with the original
record assembler (copied here, so a change to the production one cannot change the oracle),
and applies the query's filters record by record. It also counts, by the rules the backend
documents, the records a query could not place: those that passed the text and service
filters but have no time under a window query (``untimed_records``), and those whose first
line looked like JSON, did not parse, and were kept out only by the service filter
(``unparsable_lines``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from attrs import evolve

from factledger.domain.json_types import JsonObject
from factledger.domain.logs.line_format import LineRecord, parse_line
from factledger.domain.logs.query import LogQuery, query_terms
from factledger.domain.logs.raw_format import UNKNOWN_LEVEL, RawHeader, encode_raw, query_header
from factledger.domain.logs.stack_traces import looks_like_continuation
from factledger.domain.logs.timestamps import LEADING_TIMESTAMP, format_instant

_SEVERE = frozenset({"WARN", "ERROR", "CRITICAL", "FATAL"})


def reference_records(lines: Iterable[str], inherit_time: bool = True) -> Iterator[LineRecord]:
    """The original record assembler, verbatim in behaviour."""
    current: LineRecord | None = None
    continuation: list[str] = []
    texts: list[str] = []
    in_key_block = False
    last_ts: str | None = None
    number = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if current is not None and (in_key_block or (line.strip() and _continues(line))):
            continuation.append(line)
            texts.append(line)
            if "-----END" in line:
                in_key_block = False
            continue
        if current is not None:
            yield _finish(current, continuation, texts, number - 1)
        record = parse_line(line)
        if record.ts is None and inherit_time and last_ts is not None:
            record = evolve(record, ts=last_ts)
        elif record.ts is not None:
            last_ts = record.ts
        current = evolve(record, first_line=number)
        continuation = []
        texts = [line]
        in_key_block = "-----BEGIN" in line and "-----END" not in line
    if current is not None:
        yield _finish(current, continuation, texts, number)


def _continues(line: str) -> bool:
    if LEADING_TIMESTAMP.match(line) is not None:
        return False
    return looks_like_continuation(line)


def _finish(
    record: LineRecord, continuation: list[str], texts: list[str], last_line: int
) -> LineRecord:
    return evolve(
        record,
        stack=record.stack + tuple(continuation),
        last_line=last_line,
        text="\n".join(texts),
    )


class _Thinned:
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


def reference_files(directory: Path) -> list[Path]:
    """Every regular, non-hidden, non-binary file under ``directory``, in the scan order."""
    found: list[Path] = []
    for path in sorted(directory.rglob("*")):
        relative = path.relative_to(directory)
        if any(part.startswith(".") for part in relative.parts):
            continue
        if not path.is_file() or path.is_symlink():
            continue
        with path.open("rb") as probe:
            if b"\x00" in probe.read(8192):
                continue
        found.append(path)
    return found


def reference_scan(directory: Path, query: LogQuery) -> str:
    """The raw result the reference matcher gives for ``query`` over ``directory``."""
    terms = query_terms(query.text)
    start = None if query.start is None else format_instant(query.start)
    end = None if query.end is None else format_instant(query.end)
    windowed = start is not None or end is not None
    severe = _Thinned(query.limit // 2)
    other = _Thinned(query.limit)
    matched = 0
    levels: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    first: str | None = None
    last: str | None = None
    for file_index, path in enumerate(reference_files(directory)):
        relative = path.relative_to(directory)
        file_service = relative.parts[0] if len(relative.parts) > 1 else path.name.split(".")[0]
        with path.open(encoding="utf-8", errors="replace") as handle:
            for record in reference_records(handle):
                if not record.text.strip():
                    continue
                if terms and not all(term in record.text.lower() for term in terms):
                    continue
                service = record.service if record.service is not None else file_service
                in_window = record.ts is not None and not (
                    (start is not None and record.ts < start)
                    or (end is not None and record.ts > end)
                )
                if query.service is not None and service != query.service:
                    looked_structured = record.text.split("\n", 1)[0].strip().startswith("{")
                    unreadable = looked_structured and record.kind == "text"
                    if unreadable and (not windowed or in_window):
                        skipped["unparsable_lines"] += 1
                    continue
                if windowed and record.ts is None:
                    skipped["untimed_records"] += 1
                    continue
                if windowed and not in_window:
                    continue
                matched += 1
                levels[record.level or UNKNOWN_LEVEL] += 1
                if record.ts is not None:
                    first = record.ts if first is None or record.ts < first else first
                    last = record.ts if last is None or record.ts > last else last
                raw_record: JsonObject = {
                    "ts": record.ts,
                    "service": service,
                    "level": record.level,
                    "message": record.message,
                    "fields": record.fields,
                    "stack": list(record.stack),
                    "source": relative.as_posix(),
                    "line": record.first_line,
                }
                item = (record.ts or "", file_index, record.first_line, raw_record)
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
        skipped=dict(sorted(skipped.items())),
    )
    return encode_raw(header, [item[3] for item in chosen])
