"""ISO-8601 instants: parsing what logs write and the one form the raw format uses.

Every instant in the raw format and in an agent result is UTC, written
``YYYY-MM-DDTHH:MM:SS.mmmZ``; strings of that form sort in time order.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from operator import itemgetter
from typing import Final

__all__ = [
    "LEADING_TIMESTAMP",
    "all_in_own_form",
    "format_instant",
    "normalize_instant",
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
    return (
        f"{utc.year:04d}-{utc.month:02d}-{utc.day:02d}T{utc.hour:02d}:{utc.minute:02d}:"
        f"{utc.second:02d}.{utc.microsecond // 1000:03d}Z"
    )


def normalize_instant(text: str) -> str | None:
    """``format_instant(parse_instant(text))``, or None when the text names no instant; the
    raw format's own form (and the same without a fraction) is checked without parsing."""
    size = len(text)
    if (
        size in (20, 24)
        and text[-1] == "Z"
        and text[4] == "-"
        and text[7] == "-"
        and text[10] == "T"
        and text[13] == ":"
        and text[16] == ":"
        and text[0] != "0"
        and "0" <= text[17] <= "5"
        and _minute_exists(text[:16])
    ):
        if size == 20 and text[18].isdigit() and text[18].isascii():
            return text[:19] + ".000Z"
        digits = text[18] + text[20:23]
        if size == 24 and text[19] == "." and digits.isdigit() and digits.isascii():
            return text
    instant = parse_instant(text)
    return None if instant is None else format_instant(instant)


_OWN_FORM: Final = re.compile(
    r"[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-5][0-9]\.[0-9]{3}Z", re.ASCII
)
"""The raw format's own instant form, digits only (its minute checked apart)."""
_MINUTE: Final = itemgetter(slice(0, 16))


def all_in_own_form(texts: list[str]) -> bool:
    """True when ``normalize_instant`` gives every one of ``texts`` back unchanged because
    each is already in the raw format's own form (``YYYY-MM-DDTHH:MM:SS.mmmZ`` naming a real
    minute); checked with one pattern over all of them and each distinct minute once.
    TypeError when one is not a string."""
    if not all(map(_OWN_FORM.fullmatch, texts)):
        return False
    return all(map(_minute_exists, set(map(_MINUTE, texts))))


@lru_cache(maxsize=4096)
def _minute_exists(prefix: str) -> bool:
    """True when ``YYYY-MM-DDTHH:MM`` names a real minute (digits only)."""
    if not (prefix[:4] + prefix[5:7] + prefix[8:10] + prefix[11:13] + prefix[14:16]).isdigit():
        return False
    if not prefix.isascii():
        return False
    try:
        datetime.fromisoformat(prefix)
    except ValueError:
        return False
    return True
