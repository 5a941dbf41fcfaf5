"""What a logs query asks for: service, text, time window and a record limit."""

from __future__ import annotations

from datetime import datetime
from typing import Final, Literal

from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.domain.logs.timestamps import parse_instant

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "LogQuery",
    "LogQueryError",
    "LogQueryErrorReason",
    "query_terms",
]

DEFAULT_LIMIT: Final = 2000
"""Records a backend returns at most when the request names no limit."""
MAX_LIMIT: Final = 20000
"""The largest limit a request may name."""
MAX_TEXT_CHARS: Final = 256
"""The longest service name or text query accepted."""

LogQueryErrorReason = Literal["BAD_TIMESTAMP", "EMPTY_WINDOW", "BAD_LIMIT", "TEXT_TOO_LONG"]


@frozen
class LogQueryError:
    """A request that names no valid query; ``reason`` is safe to show the model."""

    reason: LogQueryErrorReason
    """Which rule the request broke."""


@frozen
class LogQuery:
    """A validated logs query. Every filter is optional; an absent one matches everything."""

    service: str | None
    """Only records of this service (exact, case-sensitive)."""
    text: str | None
    """Only records containing every whitespace-separated term, ignoring case; a term in
    double quotes may hold spaces."""
    start: datetime | None
    """Only records at or after this UTC instant."""
    end: datetime | None
    """Only records at or before this UTC instant."""
    limit: int = DEFAULT_LIMIT
    """At most this many records are returned; the matched count is still exact."""

    @classmethod
    def from_request(
        cls,
        service: str | None,
        text: str | None,
        start: str | None,
        end: str | None,
        limit: int | None = None,
    ) -> Result[LogQuery, LogQueryError]:
        """A query from the tool's arguments (ISO-8601 instants; blank means absent)."""
        service = _blank_to_none(service)
        text = _blank_to_none(text)
        if (service is not None and len(service) > MAX_TEXT_CHARS) or (
            text is not None and len(text) > MAX_TEXT_CHARS
        ):
            return Failure(LogQueryError("TEXT_TOO_LONG"))
        start_at = _instant(start)
        end_at = _instant(end)
        if start_at is False or end_at is False:
            return Failure(LogQueryError("BAD_TIMESTAMP"))
        if start_at is not None and end_at is not None and end_at < start_at:
            return Failure(LogQueryError("EMPTY_WINDOW"))
        chosen = DEFAULT_LIMIT if limit is None else limit
        if isinstance(chosen, bool) or not 1 <= chosen <= MAX_LIMIT:
            return Failure(LogQueryError("BAD_LIMIT"))
        return Success(cls(service, text, start_at, end_at, chosen))


def _blank_to_none(value: str | None) -> str | None:
    if value is None or not value.strip():
        return None
    return value.strip()


def _instant(value: str | None) -> datetime | Literal[False] | None:
    if value is None or not value.strip():
        return None
    parsed = parse_instant(value)
    return False if parsed is None else parsed


def query_terms(text: str | None) -> tuple[str, ...]:
    """The lower-cased terms a text query requires, in order; quoted phrases stay whole."""
    if text is None:
        return ()
    terms: list[str] = []
    for index, part in enumerate(text.split('"')):
        if index % 2 == 1:
            phrase = part.strip().lower()
            if phrase:
                terms.append(phrase)
        else:
            terms.extend(word.lower() for word in part.split())
    return tuple(terms)
