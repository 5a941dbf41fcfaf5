"""Times in claims and evidence, compared as instants whatever their spelling.

Evidence holds ISO-8601 instants ("2026-03-14T09:40:00.676Z", "2026-03-14 09:40:00");
claims also write "14:32 UTC", "2:32 pm", "14:32" or a bare date. A time of day without a
date takes the date of the evidence it is compared with (the run's window). Every time is
UTC unless it carries an offset.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from attrs import evolve, frozen

__all__ = [
    "ClaimTime",
    "Direction",
    "blank_times",
    "claim_times",
    "evidence_instants",
    "mask",
    "matches",
    "resolved",
    "within",
]

_ISO = re.compile(
    r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?"
    r"(Z|[+-]\d{2}:?\d{2})?)?(?!\d)"
)
_CLOCK = re.compile(
    r"(?<![\d:.])(\d{1,2})(?::(\d{2}))?(?::(\d{2})(?:\.\d+)?)?\s*"
    r"(am|pm|a\.m\.|p\.m\.)?(?:\s*(utc|gmt|z)\b)?(?!\d|:\d)",  # "at 09:12: 84 ..." is a time
    re.IGNORECASE,
)
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MONTH = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])\.?"
)
"""A month's name or its abbreviation, never a word it begins ("41 declines", "3 mayors")."""
_DAY_MONTH = re.compile(
    r"\b(?:(\d{1,2})(?:st|nd|rd|th)?\s+"
    + _MONTH
    + r"|"
    + _MONTH.replace("(jan", "(?P<m2>jan")
    + r"\s+(\d{1,2})(?:st|nd|rd|th)?)(?:,?\s+(\d{4}))?\b",
    re.IGNORECASE,
)
_NAMED = re.compile(r"\b(midnight|noon|midday)\b", re.IGNORECASE)
_RANGE = re.compile(r"^\s*(?:to|and|-|–|—|until|till|through)\s*$", re.IGNORECASE)
_SINCE = re.compile(
    r"\b(since|after|from|starting|beginning|later\s+than)\s+(?:about\s+|the\s+)?$", re.I
)
_BEFORE = re.compile(
    r"\b(before|until|till|up\s+to|prior\s+to|earlier\s+than|by)\s+(?:the\s+)?$", re.I
)
"""A word bounding a time, with "the" between ("after the 09:10 deploy")."""

Direction = str
"""``>=`` (since), ``<=`` (before) or ``=`` (at)."""


@frozen
class ClaimTime:
    """One time written in a claim."""

    text: str
    """As written."""
    date: tuple[int | None, int, int] | None
    """Its date when written (year None when the claim leaves it out)."""
    seconds: int | None
    """Seconds after midnight (UTC) when a time of day is written."""
    precision: int
    """Seconds the writing is precise to (60 for "14:32", 86400 for a bare date)."""
    direction: Direction
    start: int
    end: int
    meridiem: str | None = None
    """``am`` or ``pm`` when written."""
    next_day: bool = False
    """The end of a range that passes midnight ("23:30 to 00:30"): the day after its start."""


def _offset(zone: str | None) -> int:
    if not zone or zone.upper() == "Z":
        return 0
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    return sign * (int(digits[:2]) * 3600 + int(digits[2:4]) * 60)


def _direction(text: str, start: int) -> Direction:
    before = text[max(0, start - 24) : start]
    if _SINCE.search(before):
        return ">="
    if _BEFORE.search(before):
        return "<="
    return "="


def claim_times(text: str) -> tuple[ClaimTime, ...]:
    """Every ISO instant, date and time of day written in ``text``."""
    found: list[ClaimTime] = []
    taken: list[tuple[int, int]] = []
    for m in _ISO.finditer(text):
        date = (int(m[1]), int(m[2]), int(m[3]))
        seconds = precision = None
        if m[4] is not None:
            seconds = int(m[4]) * 3600 + int(m[5]) * 60 + int(m[6] or 0) - _offset(m[7])
            precision = 1 if m[6] else 60
        found.append(
            ClaimTime(
                m[0],
                date,
                seconds,
                precision or 86400,
                _direction(text, m.start()),
                m.start(),
                m.end(),
            )
        )
        taken.append((m.start(), m.end()))
    found += _dates_and_names(text, taken)
    for m in _CLOCK.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        hour, minute, second, half = int(m[1]), m[2], m[3], m[4]
        if minute is None and half is None:
            continue  # a bare number is no time
        if hour > 23 or (half and hour > 12) or (minute is not None and int(minute) > 59):
            continue
        if half:
            hour = hour % 12 + (12 if half.lower().startswith("p") else 0)
        seconds = hour * 3600 + int(minute or 0) * 60 + int(second or 0)
        precision = 1 if second else 60 if minute is not None else 3600
        found.append(
            ClaimTime(
                m[0].strip(),
                None,
                seconds,
                precision,
                _direction(text, m.start()),
                m.start(),
                m.start() + len(m[0].rstrip()),
                half.lower()[0] + "m" if half else None,
            )
        )
    found += _bare_range_starts(text, found)
    return _ranges(text, sorted(found, key=lambda t: t.start))


_BARE_START = re.compile(
    r"(?<![\d:.])(\d{1,2})(?=\s*(?:to|and|-|–|until|till)\s*\d{1,2}(?::\d{2})?\s*"
    r"(?:am|pm|a\.m\.|p\.m\.)?\s*(?:utc|gmt|z)?\b)",
    re.IGNORECASE,
)


def _bare_range_starts(text: str, found: list[ClaimTime]) -> list[ClaimTime]:
    """ "between 4 and 5 pm": a bare hour that starts a range ending in a time of day."""
    starts: list[ClaimTime] = []
    for m in _BARE_START.finditer(text):
        end = next((t for t in found if t.start > m.end() and t.date is None), None)
        gap = text[m.end() : end.start] if end is not None else ""
        if end is None or end.seconds is None or not _RANGE.match(gap) or int(m[1]) > 23:
            continue
        if end.meridiem is None and end.precision == 3600:
            continue
        starts.append(ClaimTime(m[0], None, int(m[1]) * 3600, 3600, _direction(text, m.start()),
                                m.start(), m.end()))  # fmt: skip
    return starts


def _dates_and_names(text: str, taken: list[tuple[int, int]]) -> list[ClaimTime]:
    """ "29 November", "Dec 15, 2026", "midnight", "noon" (their spans added to ``taken``)."""
    found: list[ClaimTime] = []
    for m in _DAY_MONTH.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        month = _MONTHS.index((m[2] or m["m2"]).lower()[:3]) + 1
        day = int(m[1] or m[4])
        if not 1 <= day <= 31:
            continue
        year = int(m[5]) if m[5] else None
        found.append(ClaimTime(m[0], (year, month, day), None, 86400,
                               _direction(text, m.start()), m.start(), m.end()))  # fmt: skip
        taken.append((m.start(), m.end()))
    for m in _NAMED.finditer(text):
        seconds = 0 if m[1].lower() == "midnight" else 12 * 3600
        found.append(ClaimTime(m[0], None, seconds, 60, _direction(text, m.start()),
                               m.start(), m.end()))  # fmt: skip
        taken.append((m.start(), m.end()))
    return found


def _ranges(text: str, times: list[ClaimTime]) -> tuple[ClaimTime, ...]:
    """ "from 2:00 to 3:00 pm": the second time's half of the day holds for the first;
    "23:30 to 00:30": the second time is on the next day."""
    for i in range(len(times) - 1):
        first, second = times[i], times[i + 1]
        between = text[first.end : second.start]
        if (
            first.date is None and second.date is None and _RANGE.match(between)
            and first.seconds is not None and second.seconds is not None
            and second.seconds < first.seconds
            and not (first.meridiem is None and second.meridiem == "pm")
        ):  # fmt: skip
            times[i + 1] = evolve(second, next_day=True)
        if (
            first.meridiem is None and first.date is None and second.meridiem == "pm"
            and first.seconds is not None and first.seconds < 12 * 3600
            and _RANGE.match(between)
        ):  # fmt: skip
            times[i] = ClaimTime(first.text, None, first.seconds + 12 * 3600, first.precision,
                                 first.direction, first.start, first.end, "pm")  # fmt: skip
    return tuple(times)


def mask(text: str, times: tuple[ClaimTime, ...]) -> str:
    """``text`` with each time blanked out (so its digits are not read as numbers)."""
    chars = list(text)
    for item in times:
        chars[item.start : item.end] = " " * (item.end - item.start)
    return "".join(chars)


_ANY_TIME = re.compile(
    r"\d(?:\d{3}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
    r"|(?<![\d.]\d)\d?:\d{2}(?::\d{2}(?:\.\d+)?)?(?!\d))"
)
"""A date (with its time of day) or a clock time. It begins with the digit it matches, so a
scan skips to digits: a clock time's "no digit or dot before it" is checked over that digit
and the character before it."""


def blank_times(text: str) -> str:
    """``text`` with every date and clock time blanked out."""
    if ":" not in text and "-" not in text:
        return text
    return _ANY_TIME.sub(lambda m: " " * len(m.group()), text)


def evidence_instants(text: str) -> tuple[datetime, ...]:
    """Every ISO instant (with a time of day) or date in evidence text, as UTC."""
    found: list[datetime] = []
    if "-" not in text:
        return ()
    for m in _ISO.finditer(text):
        base = datetime(int(m[1]), int(m[2]), int(m[3]), tzinfo=UTC)
        if m[4] is not None:
            offset = _offset(m[7])
            base += timedelta(hours=int(m[4]), minutes=int(m[5]), seconds=int(m[6] or 0))
            base -= timedelta(seconds=offset)
        found.append(base)
    return tuple(found)


def resolved(item: ClaimTime, instant: datetime, ranged: bool = False) -> datetime:
    """The claim's time as an instant, on ``instant``'s date (or year) when it has none (the
    day after when ``ranged`` and it ends a range past midnight)."""
    year, month, day = item.date or (instant.year, instant.month, instant.day)
    base = datetime(year or instant.year, month, day, tzinfo=UTC)
    later = 86400 if ranged and item.next_day else 0
    return base + timedelta(seconds=(item.seconds or 0) + later)


def within(item: ClaimTime, start: datetime, end: datetime) -> bool:
    """True when the claim's time lies in [start, end] on some date of the window."""
    days = {start.date(), end.date()}
    for day in days:
        anchor = datetime(day.year, day.month, day.day, tzinfo=UTC)
        instant = resolved(item, anchor)
        if start - timedelta(seconds=item.precision - 1) <= instant <= end:
            return True
    return False


def matches(item: ClaimTime, instant: datetime) -> bool:
    """True when ``instant`` read at the claim's precision is the claim's time (truncated,
    or rounded to the nearest: an end written "16:24" for 16:23:54)."""
    if item.seconds is None and item.date is not None:
        year, month, day = item.date
        return (instant.month, instant.day) == (month, day) and year in {None, instant.year}
    claimed = resolved(item, instant)
    delta = (instant - claimed).total_seconds()
    if 0 <= delta < item.precision or abs(delta) < 1:
        return True
    return item.precision > 1 and -item.precision / 2 <= delta < 0  # 16:23:54 read as 16:24
