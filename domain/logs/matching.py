"""Which records a logs query matches: the one home of the rule every backend scan applies.

A record matches when its text (its lines as written, joined by line breaks) holds every
query term ignoring case, its service is the query's (the record's own, else its file's),
and, under a window, its time (its own, else the one inherited from the record before it)
lies within the window, bounds included. A blank record never matches.

Two kinds of record are neither matched nor simply left out, but counted as not placed
(``SkipKind``): under a window, a record without any time that matched the text and
service; and a record whose first line looks like JSON but does not parse, that matched the
text and window and was kept out by the service filter alone (its own service is unknown).
"""

from __future__ import annotations

from enum import Enum

from attrs import frozen

from factledger.domain.logs.line_format import LineRecord
from factledger.domain.logs.query import LogQuery, query_terms
from factledger.domain.logs.skipped import SkipKind
from factledger.domain.logs.timestamps import format_instant

__all__ = ["RecordFilter", "Verdict"]


class Verdict(Enum):
    """What a filter says of one record."""

    MATCHED = "matched"
    EXCLUDED = "excluded"
    UNTIMED = SkipKind.UNTIMED_RECORDS.value
    UNPARSABLE = SkipKind.UNPARSABLE_LINES.value


@frozen
class RecordFilter:
    """A query's filters, ready to apply to records."""

    terms: tuple[str, ...]
    """Lower-cased terms the text must hold (``query_terms``)."""
    service: str | None
    """The service a record must belong to, when named."""
    start: str | None
    """Window start (raw-format instant), inclusive."""
    end: str | None
    """Window end (raw-format instant), inclusive."""

    @classmethod
    def of(cls, query: LogQuery) -> RecordFilter:
        """The filter of a validated query."""
        return cls(
            terms=query_terms(query.text),
            service=query.service,
            start=None if query.start is None else format_instant(query.start),
            end=None if query.end is None else format_instant(query.end),
        )

    @property
    def windowed(self) -> bool:
        """True when the query names a window bound."""
        return self.start is not None or self.end is not None

    def text_matches(self, text: str) -> bool:
        """True when a record's text is not blank and holds every term, ignoring case."""
        if not self.terms:
            return bool(text.strip())
        lowered = text.lower()
        return all(term in lowered for term in self.terms) and bool(text.strip())

    def in_window(self, ts: str | None) -> bool:
        """True when a time lies within the window (always, without one; never for None
        under one)."""
        if not self.windowed:
            return True
        if ts is None:
            return False
        return (self.start is None or ts >= self.start) and (self.end is None or ts <= self.end)

    def judge(self, record: LineRecord, file_service: str) -> Verdict:
        """The verdict on a record whose text already matched (``text_matches``)."""
        service = record.service if record.service is not None else file_service
        if self.service is not None and service != self.service:
            unreadable = record.kind == "text" and _looks_structured(record.text)
            if unreadable and self.in_window(record.ts):
                return Verdict.UNPARSABLE
            return Verdict.EXCLUDED
        return self._timed(record.ts)

    def judge_parsed(self, service: str, ts: str | None) -> Verdict:
        """The verdict on a parsed structured record (its service decided) whose text
        already matched: ``judge`` without the unparsable case, which needs a text line."""
        if self.service is not None and service != self.service:
            return Verdict.EXCLUDED
        return self._timed(ts)

    def _timed(self, ts: str | None) -> Verdict:
        if self.windowed and ts is None:
            return Verdict.UNTIMED
        return Verdict.MATCHED if self.in_window(ts) else Verdict.EXCLUDED


def _looks_structured(text: str) -> bool:
    newline = text.find("\n")
    first = text if newline < 0 else text[:newline]
    return first.strip().startswith("{")
