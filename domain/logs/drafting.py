"""The shown form of a template (its header and example candidates) and of an event, built
before selection decides what fits."""

from __future__ import annotations

from factledger.domain.json_types import JsonObject
from factledger.domain.logs.redaction import Redactor
from factledger.domain.logs.rendering import clip, render_record
from factledger.domain.logs.selection import Draft, PatternDraft
from factledger.domain.logs.template_stats import (
    LEVEL,
    MESSAGE,
    ORDER,
    RANK,
    RECORD,
    TEMPLATE,
    TS,
    WARN_RANK,
    Candidate,
    TemplateStats,
)
from factledger.domain.logs.templates import fingerprint

__all__ = ["Drafter"]


class Drafter:
    """Builds pattern and event drafts with one redactor and one set of length limits."""

    def __init__(
        self,
        redactor: Redactor,
        template_chars: int,
        message_chars: int,
        field_chars: int,
        max_fields: int,
    ) -> None:
        self._redactor = redactor
        self._template_chars = template_chars
        self._limits = (message_chars, field_chars, max_fields)

    def pattern(self, template: str, stats: TemplateStats) -> PatternDraft:
        """A template's header and its example candidates (most severe, first, last)."""
        text, clipped = clip(template, self._template_chars)
        header: JsonObject = {
            "fingerprint": fingerprint(template),
            "template": text,
            "count": stats.count,
            "first_seen": stats.first_ts,
            "last_seen": stats.last_ts,
            "levels": dict(sorted(stats.levels.items())),
            "examples": [],
        }
        order: tuple[Candidate, ...] = (stats.best, stats.first, stats.last)
        if stats.best[RANK] <= stats.first[RANK]:
            order = (stats.first, stats.last)
        picks: list[Candidate] = []
        for candidate in order:
            if all(candidate[ORDER] != other[ORDER] for other in picks):
                picks.append(candidate)
        return PatternDraft(
            header=Draft(header, clipped=clipped),
            examples=tuple(self._record(candidate, None, None) for candidate in picks),
            severe=stats.error or stats.rank >= WARN_RANK,
            count=stats.count,
        )

    def event(self, candidate: Candidate, template: str) -> Draft:
        """A record as an event of its (merged) template; its key is its masked message."""
        return self._record(candidate, fingerprint(template), candidate[TEMPLATE])

    def _record(self, candidate: Candidate, pattern: str | None, key: str | None) -> Draft:
        message_chars, field_chars, max_fields = self._limits
        return render_record(
            self._redactor,
            candidate[TS],
            candidate[LEVEL],
            candidate[MESSAGE],
            candidate[RECORD],
            pattern,
            message_chars,
            field_chars,
            max_fields,
            key=key,
        )
