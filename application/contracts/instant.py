"""An instant as every contract accepts it: an ISO-8601 date and time with a time zone.

Pydantic reads a numeric string (``"0"``, ``"1764406800"``) as a Unix timestamp, even in strict
mode, so a window of ``{"end": "0"}`` would pass as 1970. A model, an HTTP client or a recorded
transcript that sends such a value made a mistake, and a tool must not search the wrong window
in silence: only text that starts with a date and a time (``2026-11-29T09:00``, seconds,
fractions and the zone as ISO-8601 or RFC 3339 allow) is an instant here, read by
``datetime.fromisoformat``. An instant whose UTC form falls outside the years 1 to 9999
(``9999-12-31T23:59:59-01:00``) is refused too: nothing could record or compare it. The JSON
schema stays ``{"type": "string", "format": "date-time"}``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Final

from pydantic import AfterValidator, AwareDatetime, BeforeValidator

__all__ = ["Instant", "representable_in_utc"]

_DATE_AND_TIME: Final = re.compile(r"\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d")


def _date_and_time(value: object) -> object:
    """A datetime as it is; text written as a date and a time, read as ISO-8601; anything
    else refused (the message names no input)."""
    if isinstance(value, datetime):
        return value
    if isinstance(value, str) and _DATE_AND_TIME.match(value) is not None:
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass
    raise ValueError("an instant is an ISO-8601 date and time with a time zone")


def representable_in_utc(value: datetime) -> bool:
    """True when an aware datetime has a UTC form (its year stays within 1 to 9999)."""
    try:
        value.astimezone(UTC)
    except OverflowError:
        return False
    return True


def _in_utc_range(value: datetime) -> datetime:
    if not representable_in_utc(value):
        raise ValueError("an instant must lie between the years 1 and 9999 in UTC")
    return value


Instant = Annotated[AwareDatetime, BeforeValidator(_date_and_time), AfterValidator(_in_utc_range)]
"""An ISO-8601 date and time with a time zone (a number is not a timestamp here)."""
