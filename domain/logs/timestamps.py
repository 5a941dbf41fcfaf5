"""ISO-8601 instants: parsing what logs write and the one form the raw format uses.

Every instant in the raw format and in an agent result is UTC, written
``YYYY-MM-DDTHH:MM:SS.mmmZ``; strings of that form sort in time order.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Final

__all__ = [
    "LEADING_TIMESTAMP",
    "format_instant",
    "parse_instant",
]

LEADING_TIMESTAMP: Final = re.compile(
    r"(?P<ts>\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?"
    r"(?:Z|[+-]\d{2}:?\d{2}| ?UTC)?)"
)
"""An ISO-8601 date and time at the start of a plain text line (``,`` or ``.`` before the
fraction, ``T`` or a space between date and time, optional zone)."""

_FRACTION: Final = re.compile(r"[.,](\d{1,9})")
_ZONE: Final = re.compile(r"(?:Z| ?UTC|([+-])(\d{2}):?(\d{2}))$")


def parse_instant(text: str) -> datetime | None:
    """The UTC instant an ISO-8601 text names, or None when it names none.

    A text without a zone is taken as UTC.
    """
    candidate = text.strip()
    if len(candidate) < 10:
        return None
    zone = _ZONE.search(candidate)
    offset = timedelta(0)
    if zone is not None:
        if zone.group(1) is not None:
            minutes = int(zone.group(2)) * 60 + int(zone.group(3))
            offset = timedelta(minutes=minutes if zone.group(1) == "+" else -minutes)
        candidate = candidate[: zone.start()]
    micros = 0
    fraction = _FRACTION.search(candidate)
    if fraction is not None:
        digits = fraction.group(1)
        micros = int((digits + "000000")[:6])
        candidate = candidate[: fraction.start()] + candidate[fraction.end() :]
    try:
        parsed = datetime.fromisoformat(candidate.replace(" ", "T", 1))
    except ValueError:
        return None
    if parsed.tzinfo is not None:
        return None
    return (parsed.replace(microsecond=micros) - offset).replace(tzinfo=UTC)


def format_instant(instant: datetime) -> str:
    """The raw format's form of an instant: UTC, milliseconds, ``Z``."""
    utc = instant.astimezone(UTC) if instant.tzinfo is not None else instant
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"
