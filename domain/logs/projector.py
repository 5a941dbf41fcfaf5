"""The logs projector: a backend's raw result and the query → the bounded observation.

Pure: no I/O, no clock. One pass over the records (read one at a time from the raw text,
``template_stats``): every message is redacted, then mined into its template; per template
the count, first and last time, level counts and a few candidate examples are kept, and a
time sketch keeps a few records per stretch of time. Then templates are merged, and what
fits in the byte budget is chosen (``selection``). Examples and events are redacted again
as a whole record (fields and stack lines included) and stack traces folded before anything
is shown (``drafting``). Events never repeat a message (``event_sampling``).

What the backend did not read or place (``skipped``) is restated in the scope, and then the
observation is incomplete: ``truncated`` with ``SCOPE_NOT_FULLY_READ``, whatever matched.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.domain.json_types import JsonObject
from factledger.domain.logs.agent_result import TruncationReason, recompute_evidence_status
from factledger.domain.logs.drafting import Drafter
from factledger.domain.logs.event_sampling import event_buckets
from factledger.domain.logs.levels import normalize_level
from factledger.domain.logs.query import LogQuery
from factledger.domain.logs.raw_format import UNKNOWN_LEVEL, RawHeader, RawReader, query_header
from factledger.domain.logs.redaction import Redactor
from factledger.domain.logs.selection import Selection, encoded_size, select
from factledger.domain.logs.template_stats import (
    ORDER,
    TEMPLATE,
    WARN_RANK,
    MalformedRecord,
    RecordPass,
    TemplateStats,
    earliest,
    latest,
    merge_stats,
)
from factledger.domain.logs.templates import mask_word
from factledger.domain.tool_result import ProjectedToolResult, ProjectionFailure

__all__ = ["DEFAULT_BUDGET_BYTES", "LogProjectionSettings", "project_logs"]

DEFAULT_BUDGET_BYTES: Final = 16_384
"""The observation's default size limit (compact UTF-8 JSON of the whole agent_result)."""
MIN_BUDGET_BYTES: Final = 2_048


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
    records = RecordPass(redactor, settings.max_templates, settings.time_buckets * 2)
    try:
        records.read(reader.records())
    except MalformedRecord:
        return Failure(ProjectionFailure("MALFORMED_RECORD"))
    header = reader.header()
    if isinstance(header, str):
        return Failure(ProjectionFailure(header))
    if header.query != query_header(query):
        return Failure(ProjectionFailure("SCOPE_MISMATCH"))
    return Success(_assemble(header, query, records, redactor, settings))


def _assemble(
    header: RawHeader,
    query: LogQuery,
    records: RecordPass,
    redactor: Redactor,
    settings: LogProjectionSettings,
) -> ProjectedToolResult:
    merged, merged_of = merge_stats(records.table)
    first_ts: str | None = None
    last_ts: str | None = None
    for stats in merged.values():
        first_ts = earliest(first_ts, stats.first_ts)
        last_ts = latest(last_ts, stats.last_ts)
    ordered = _priority(merged, header.returned_count)
    drafter = Drafter(
        redactor,
        settings.template_chars,
        settings.message_chars,
        settings.field_chars,
        settings.max_fields,
    )
    drafts = [drafter.pattern(template, merged[template]) for template in ordered]
    counts = {template: stats.count for template, stats in merged.items()}
    buckets = event_buckets(
        records.sketch, records.untimed, first_ts, last_ts, settings.time_buckets, counts, merged_of
    )
    event_drafts = [
        [drafter.event(candidate, merged_of[candidate[TEMPLATE]]) for candidate in bucket]
        for bucket in buckets
    ]
    base = _base(header, query, first_ts, last_ts, len(merged))
    room = settings.budget_bytes - encoded_size(base) - 8
    selection = select(drafts, event_drafts, room, settings.examples_per_pattern)
    omitted = sum(merged[ordered[i]].count for i in range(len(ordered)) if i not in selection.shown)
    reasons = _reasons(header, records.overflow, omitted, selection)
    agent_result = dict(base)
    agent_result["patterns"] = list(selection.patterns)
    agent_result["events"] = list(selection.events)
    agent_result["truncated"] = bool(reasons)
    agent_result["truncation_reasons"] = [reason.value for reason in reasons]
    dropped = header.matched_count - header.returned_count + records.overflow + omitted
    agent_result["lines_dropped"] = dropped
    status = recompute_evidence_status(agent_result).value_or(None)
    if status is None:  # pragma: no cover - the assembly above always yields a valid result
        raise AssertionError("the projector built an inconsistent agent_result")
    return ProjectedToolResult(agent_result, status, truncated=bool(reasons))


def _base(
    header: RawHeader, query: LogQuery, first: str | None, last: str | None, patterns: int
) -> JsonObject:
    """The observation without its patterns and events, every count at its widest."""
    skipped: JsonObject = dict(header.skipped)
    return {
        "scope": {
            "service": query.service,
            "query": query.text,
            "start": header.window_start,
            "end": header.window_end,
            "skipped": skipped,
        },
        "matched_count": header.matched_count,
        "observed_range": {"first": first, "last": last},
        "level_counts": _shown_levels(header.level_counts),
        "pattern_count": patterns,
        "patterns": [],
        "events": [],
        "truncated": True,
        "truncation_reasons": [reason.value for reason in TruncationReason],
        "lines_dropped": 10**12,
        "returned_count": header.returned_count,
    }


def _reasons(
    header: RawHeader, overflow: int, omitted: int, selection: Selection
) -> list[TruncationReason]:
    reasons: list[TruncationReason] = []
    if header.skipped:
        reasons.append(TruncationReason.SCOPE_NOT_FULLY_READ)
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
    return reasons


def _priority(merged: dict[str, TemplateStats], returned: int) -> list[str]:
    rare_limit = max(2, returned // 1000)
    errors = [t for t, s in merged.items() if s.error]
    warnings = [t for t, s in merged.items() if not s.error and s.rank >= WARN_RANK]
    rest = [t for t, s in merged.items() if not s.error and s.rank < WARN_RANK]
    errors.sort(key=lambda t: (-merged[t].rank, merged[t].count, merged[t].first[ORDER]))
    warnings.sort(key=lambda t: (merged[t].count, merged[t].first[ORDER]))
    rare = [t for t in rest if merged[t].count <= rare_limit]
    volume = [t for t in rest if merged[t].count > rare_limit]
    rare.sort(key=lambda t: (merged[t].count, merged[t].first[ORDER]))
    volume.sort(key=lambda t: (-merged[t].count, merged[t].first[ORDER]))
    return errors + warnings + rare + volume


def _shown_levels(level_counts: dict[str, int]) -> JsonObject:
    """The backend's per-level counts under the projector's level names only (a name that is
    no known level is counted as ``UNKNOWN``, never shown as written)."""
    shown: dict[str, int] = {}
    for name, count in level_counts.items():
        level = normalize_level(name)
        key = UNKNOWN_LEVEL if level is None else level.value
        shown[key] = shown.get(key, 0) + count
    return dict(sorted(shown.items()))
