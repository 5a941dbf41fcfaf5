"""The logs projector: a backend's raw result and the query → the bounded observation.

Pure: no I/O, no clock. One pass over the records (read one at a time from the raw text):
every message is redacted, then mined into its template; per template the count, first and
last time, level counts and a few candidate examples are kept, and a time sketch keeps a few
records per stretch of time. Then templates are merged, and what fits in the byte budget is
chosen (see ``selection``). Examples and events are redacted again as a whole record (fields
and stack lines included) and stack traces folded before anything is shown.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Final

from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.logs.agent_result import TruncationReason, recompute_evidence_status
from factledger.domain.logs.levels import SEVERE_LEVELS, LogLevel, level_rank, normalize_level
from factledger.domain.logs.query import LogQuery
from factledger.domain.logs.raw_format import UNKNOWN_LEVEL, RawHeader, RawReader, query_header
from factledger.domain.logs.redaction import Redactor
from factledger.domain.logs.rendering import clip, render_record
from factledger.domain.logs.selection import Draft, PatternDraft, encoded_size, select
from factledger.domain.logs.templates import (
    fingerprint,
    mask_word,
    merge_templates,
    template_of_masked,
)
from factledger.domain.logs.time_sketch import TimeSketch
from factledger.domain.logs.timestamps import format_instant, parse_instant
from factledger.domain.tool_result import ProjectedToolResult, ProjectionFailure

__all__ = ["DEFAULT_BUDGET_BYTES", "LogProjectionSettings", "project_logs"]

DEFAULT_BUDGET_BYTES: Final = 16_384
"""The observation's default size limit (compact UTF-8 JSON of the whole agent_result)."""
MIN_BUDGET_BYTES: Final = 2_048

_WARN_RANK: Final = level_rank(LogLevel.WARN)
_SEVERE_RANK: Final = level_rank(LogLevel.ERROR)
_STACK_RANK: Final = _SEVERE_RANK
_LEVEL_BONUS: Final = 1


@frozen
class LogProjectionSettings:
    """Limits of one projection (the defaults are the tool's)."""

    budget_bytes: int = DEFAULT_BUDGET_BYTES
    """Size limit of the whole agent_result, compact UTF-8 JSON."""
    examples_per_pattern: int = 2
    """Redacted example records shown per template at most."""
    time_buckets: int = 20
    """Equal stretches of the observed time range; each gets at least one event if it
    holds any record and the budget allows."""
    template_chars: int = 300
    """Longest template text shown."""
    message_chars: int = 300
    """Longest example or event message shown."""
    field_chars: int = 120
    """Longest field value shown."""
    max_fields: int = 8
    """Fields shown per example or event at most."""
    max_templates: int = 50_000
    """Distinct templates kept; records of later new templates are only counted."""


DEFAULT_SETTINGS: Final = LogProjectionSettings()


_Candidate = tuple[
    int, "str | None", "float | None", int, "str | None", str, dict[str, JsonValue], str
]
"""A record that may be shown: (input order, ts, epoch seconds, severity rank, level,
redacted message, raw record object, template before merging)."""
_ORDER: Final = 0
_TS: Final = 1
_EPOCH: Final = 2
_RANK: Final = 3
_LEVEL: Final = 4
_MESSAGE: Final = 5
_RECORD: Final = 6
_TEMPLATE: Final = 7


class _Stats:
    """What is kept per template."""

    __slots__ = ("best", "count", "error", "first", "first_ts", "last", "last_ts", "levels", "rank")

    def __init__(self, candidate: _Candidate, error: bool, level_name: str) -> None:
        self.count = 1
        self.first_ts = candidate[_TS]
        self.last_ts = candidate[_TS]
        self.levels = {level_name: 1}
        self.rank = candidate[_RANK]
        self.error = error
        self.best = candidate
        self.first = candidate
        self.last = candidate

    def absorb(self, other: _Stats) -> None:
        self.count += other.count
        self.first_ts = _earliest(self.first_ts, other.first_ts)
        self.last_ts = _latest(self.last_ts, other.last_ts)
        for name, count in other.levels.items():
            self.levels[name] = self.levels.get(name, 0) + count
        self.rank = max(self.rank, other.rank)
        self.error = self.error or other.error
        if (other.best[_RANK], -other.best[_ORDER]) > (self.best[_RANK], -self.best[_ORDER]):
            self.best = other.best
        if other.first[_ORDER] < self.first[_ORDER]:
            self.first = other.first
        if other.last[_ORDER] > self.last[_ORDER]:
            self.last = other.last


class _MalformedRecord(Exception):
    pass


def project_logs(
    raw: str, query: LogQuery, settings: LogProjectionSettings = DEFAULT_SETTINGS
) -> Result[ProjectedToolResult, ProjectionFailure]:
    """The bounded, redacted observation of a raw logs result, or why there is none.

    ``query`` is the request the raw answers; the raw must restate it (else
    ``SCOPE_MISMATCH``). Zero matched records ⇒ NO_EVIDENCE with the same scope.
    """
    if settings.budget_bytes < MIN_BUDGET_BYTES:
        return Failure(ProjectionFailure("BUDGET_TOO_SMALL"))
    reader = RawReader(raw)
    redactor = Redactor(word_hook=mask_word)
    try:
        table, sketch, untimed, overflow = _scan(reader, redactor, settings)
    except _MalformedRecord:
        return Failure(ProjectionFailure("MALFORMED_RECORD"))
    header = reader.header()
    if isinstance(header, str):
        return Failure(ProjectionFailure(header))
    if header.query != query_header(query):
        return Failure(ProjectionFailure("SCOPE_MISMATCH"))
    return Success(_assemble(header, query, table, sketch, untimed, overflow, redactor, settings))


def _scan(  # noqa: PLR0915  # one inlined loop: a call per record would cost more than its work
    reader: RawReader, redactor: Redactor, settings: LogProjectionSettings
) -> tuple[dict[str, _Stats], TimeSketch[_Candidate], list[_Candidate], int]:
    """One pass over the records: redact, mine, count, keep candidates."""
    redact_words = redactor.redact_words
    table: dict[str, _Stats] = {}
    sketch: TimeSketch[_Candidate] = TimeSketch()
    severe_slots = sketch.severe_slots
    untimed: list[_Candidate] = []
    overflow = 0
    max_templates = settings.max_templates
    untimed_limit = settings.time_buckets * 2
    seconds_cache: dict[str, float] = {}
    levels_seen: dict[JsonValue, tuple[str | None, int, bool, str]] = {}
    for order, value in enumerate(reader.records()):
        if type(value) is not dict:
            raise _MalformedRecord
        message = value.get("message")
        if type(message) is not str:
            message = "" if message is None else json.dumps(message, ensure_ascii=False)
        ts = value.get("ts")
        epoch: float | None = None
        if ts is not None:
            if type(ts) is not str:
                raise _MalformedRecord
            if len(ts) == 24 and ts[16] == ":" and ts[19] == "." and ts[23] == "Z":
                minute = ts[:16]
                base = seconds_cache.get(minute)
                if base is None:
                    base = _seconds(minute)
                    seconds_cache[minute] = base
                fraction = ts[17:19] + ts[20:23]
                if not fraction.isdigit() or fraction[0] > "5":
                    raise _MalformedRecord
                epoch = base + int(fraction) / 1000
            else:
                instant = parse_instant(ts)
                if instant is None:
                    raise _MalformedRecord
                ts = format_instant(instant)
                epoch = instant.timestamp()
        level_key = value.get("level")
        level_info = levels_seen.get(level_key)
        if level_info is None:
            level_info = _level_info(level_key)
            levels_seen[level_key] = level_info
        level, rank, error, level_name = level_info
        stack = value.get("stack")
        if stack:
            if type(stack) is not list:
                raise _MalformedRecord
            rank = max(rank, _STACK_RANK)
            error = True
        redacted, masked = redact_words(message)
        template = template_of_masked(masked)
        candidate: _Candidate = (order, ts, epoch, rank, level, redacted, value, template)
        stats = table.get(template)
        if stats is None:
            if len(table) >= max_templates:
                overflow += 1
                continue
            table[template] = _Stats(candidate, error, level_name)
        else:
            stats.count += 1
            stats.last = candidate
            counts = stats.levels
            counts[level_name] = counts.get(level_name, 0) + 1
            if ts is not None:
                if stats.first_ts is None or ts < stats.first_ts:
                    stats.first_ts = ts
                if stats.last_ts is None or ts > stats.last_ts:
                    stats.last_ts = ts
            if rank > stats.rank:
                stats.rank = rank
                stats.best = candidate
            if error:
                stats.error = True
        if epoch is not None:
            kept = severe_slots.get(int(epoch // sketch.width))
            if kept is None or rank > kept[0]:
                sketch.add(epoch, rank, order, candidate)
                severe_slots = sketch.severe_slots
        elif len(untimed) < untimed_limit:
            untimed.append(candidate)
    return table, sketch, untimed, overflow


def _seconds(text: str) -> float:
    try:
        return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()
    except ValueError as error:
        raise _MalformedRecord from error


def _level_info(value: JsonValue) -> tuple[str | None, int, bool, str]:
    """(level, severity rank, is an error level, name counted under)."""
    if value is None:
        return None, level_rank(None), False, UNKNOWN_LEVEL
    if not isinstance(value, str):
        raise _MalformedRecord
    level = normalize_level(value)
    if level is None:
        return None, level_rank(None), False, UNKNOWN_LEVEL
    return level.value, level_rank(level), level in SEVERE_LEVELS, level.value


def _assemble(
    header: RawHeader,
    query: LogQuery,
    table: dict[str, _Stats],
    sketch: TimeSketch[_Candidate],
    untimed: list[_Candidate],
    overflow: int,
    redactor: Redactor,
    settings: LogProjectionSettings,
) -> ProjectedToolResult:
    merged, template_of_candidate = _merge(table)
    first_ts: str | None = None
    last_ts: str | None = None
    for stats in merged.values():
        first_ts = _earliest(first_ts, stats.first_ts)
        last_ts = _latest(last_ts, stats.last_ts)
    counts = {template: stats.count for template, stats in merged.items()}
    ordered = _priority(merged, header.returned_count)
    renderer = _Renderer(redactor, settings)
    drafts = [renderer.pattern(template, merged[template]) for template in ordered]
    buckets = _event_buckets(
        sketch, untimed, first_ts, last_ts, settings.time_buckets, counts, template_of_candidate
    )
    event_drafts = [
        [renderer.event(candidate, template_of_candidate[candidate[_TEMPLATE]]) for candidate in b]
        for b in buckets
    ]
    base: JsonObject = {
        "scope": {
            "service": query.service,
            "query": query.text,
            "start": header.window_start,
            "end": header.window_end,
        },
        "matched_count": header.matched_count,
        "observed_range": {"first": first_ts, "last": last_ts},
        "level_counts": _shown_levels(header.level_counts),
        "pattern_count": len(merged),
        "patterns": [],
        "events": [],
        "truncated": True,
        "truncation_reasons": [reason.value for reason in TruncationReason],
        "lines_dropped": 10**12,
        "returned_count": header.returned_count,
    }
    room = settings.budget_bytes - encoded_size(base) - 8
    selection = select(drafts, event_drafts, room, settings.examples_per_pattern)
    omitted = sum(merged[ordered[i]].count for i in range(len(ordered)) if i not in selection.shown)
    reasons: list[TruncationReason] = []
    if header.limit_reached:
        reasons.append(TruncationReason.BACKEND_LIMIT)
    if overflow:
        reasons.append(TruncationReason.TEMPLATE_LIMIT)
    if omitted:
        reasons.append(TruncationReason.PATTERNS_OMITTED)
    if selection.clipped:
        reasons.append(TruncationReason.MESSAGES_CLIPPED)
    if selection.frames_dropped:
        reasons.append(TruncationReason.STACK_FRAMES_DROPPED)
    agent_result = dict(base)
    agent_result["patterns"] = list(selection.patterns)
    agent_result["events"] = list(selection.events)
    agent_result["truncated"] = bool(reasons)
    agent_result["truncation_reasons"] = [reason.value for reason in reasons]
    dropped = header.matched_count - header.returned_count + overflow + omitted
    agent_result["lines_dropped"] = dropped
    status = recompute_evidence_status(agent_result).value_or(None)
    if status is None:  # pragma: no cover - the assembly above always yields a valid result
        raise AssertionError("the projector built an inconsistent agent_result")
    return ProjectedToolResult(agent_result, status, truncated=bool(reasons))


def _merge(table: dict[str, _Stats]) -> tuple[dict[str, _Stats], dict[str, str]]:
    mapping = merge_templates(table)
    merged: dict[str, _Stats] = {}
    for template, stats in table.items():
        target = mapping[template]
        existing = merged.get(target)
        if existing is None:
            merged[target] = stats
        else:
            existing.absorb(stats)
    return merged, mapping


def _priority(merged: dict[str, _Stats], returned: int) -> list[str]:
    rare_limit = max(2, returned // 1000)
    errors = [t for t, s in merged.items() if s.error]
    warnings = [t for t, s in merged.items() if not s.error and s.rank >= _WARN_RANK]
    rest = [t for t, s in merged.items() if not s.error and s.rank < _WARN_RANK]
    errors.sort(key=lambda t: (-merged[t].rank, merged[t].count, merged[t].first[_ORDER]))
    warnings.sort(key=lambda t: (merged[t].count, merged[t].first[_ORDER]))
    rare = [t for t in rest if merged[t].count <= rare_limit]
    volume = [t for t in rest if merged[t].count > rare_limit]
    rare.sort(key=lambda t: (merged[t].count, merged[t].first[_ORDER]))
    volume.sort(key=lambda t: (-merged[t].count, merged[t].first[_ORDER]))
    return errors + warnings + rare + volume


def _event_buckets(
    sketch: TimeSketch[_Candidate],
    untimed: list[_Candidate],
    first_ts: str | None,
    last_ts: str | None,
    bucket_count: int,
    counts: dict[str, int],
    merged_of: dict[str, str],
) -> list[list[_Candidate]]:
    entries = [entry[3] for entry in sketch.entries()]
    buckets: list[list[_Candidate]] = [[] for _ in range(bucket_count)]
    start = parse_instant(first_ts) if first_ts is not None else None
    end = parse_instant(last_ts) if last_ts is not None else None
    if start is not None and end is not None:
        low = start.timestamp()
        span = max(end.timestamp() - low, 1e-9)
        for candidate in entries:
            moment = candidate[_EPOCH]
            epoch = moment if moment is not None else low
            index = min(bucket_count - 1, max(0, int((epoch - low) / span * bucket_count)))
            buckets[index].append(candidate)
    if untimed:
        buckets.append(list(untimed))

    def preference(candidate: _Candidate) -> tuple[int, int, int]:
        return (-candidate[_RANK], counts[merged_of[candidate[_TEMPLATE]]], candidate[_ORDER])

    chosen: list[list[_Candidate]] = []
    for bucket in buckets:
        bucket.sort(key=preference)
        picked: list[_Candidate] = []
        seen_templates: set[str] = set()
        for candidate in bucket:
            template = merged_of[candidate[_TEMPLATE]]
            if template in seen_templates:
                continue
            seen_templates.add(template)
            picked.append(candidate)
            if len(picked) == 2:
                break
        chosen.append(picked)
    return chosen


class _Renderer:
    """Builds the shown form of patterns, examples and events."""

    def __init__(self, redactor: Redactor, settings: LogProjectionSettings) -> None:
        self._redactor = redactor
        self._settings = settings

    def pattern(self, template: str, stats: _Stats) -> PatternDraft:
        text, clipped = clip(template, self._settings.template_chars)
        header: JsonObject = {
            "fingerprint": fingerprint(template),
            "template": text,
            "count": stats.count,
            "first_seen": stats.first_ts,
            "last_seen": stats.last_ts,
            "levels": dict(sorted(stats.levels.items())),
            "examples": [],
        }
        order: tuple[_Candidate, ...] = (stats.best, stats.first, stats.last)
        if stats.best[_RANK] <= stats.first[_RANK]:
            order = (stats.first, stats.last)
        picks: list[_Candidate] = []
        for candidate in order:
            if all(candidate[_ORDER] != other[_ORDER] for other in picks):
                picks.append(candidate)
        return PatternDraft(
            header=Draft(header, clipped=clipped),
            examples=tuple(self.record(candidate, None) for candidate in picks),
            severe=stats.error or stats.rank >= _WARN_RANK,
            count=stats.count,
        )

    def event(self, candidate: _Candidate, template: str) -> Draft:
        return self.record(candidate, fingerprint(template))

    def record(self, candidate: _Candidate, pattern: str | None) -> Draft:
        settings = self._settings
        return render_record(
            self._redactor,
            candidate[_TS],
            candidate[_LEVEL],
            candidate[_MESSAGE],
            candidate[_RECORD],
            pattern,
            settings.message_chars,
            settings.field_chars,
            settings.max_fields,
        )


def _shown_levels(level_counts: dict[str, int]) -> JsonObject:
    """The backend's per-level counts under the projector's level names only (a name that is
    no known level is counted as ``UNKNOWN``, never shown as written)."""
    shown: dict[str, int] = {}
    for name, count in level_counts.items():
        level = normalize_level(name)
        key = UNKNOWN_LEVEL if level is None else level.value
        shown[key] = shown.get(key, 0) + count
    return dict(sorted(shown.items()))


def _earliest(left: str | None, right: str | None) -> str | None:
    if left is None:
        return right
    if right is None:
        return left
    return min(left, right)


def _latest(left: str | None, right: str | None) -> str | None:
    if left is None:
        return right
    if right is None:
        return left
    return max(left, right)
