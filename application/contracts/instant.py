"""An instant as every contract accepts it: an ISO-8601 date and time with a time zone.

Pydantic reads a numeric string (``"0"``, ``"1764406800"``) as a Unix timestamp, even in strict
mode, so a window of ``{"end": "0"}`` would pass as 1970. A model, an HTTP client or a recorded
transcript that sends such a value made a mistake, and a tool must not search the wrong window
in silence: only text that starts with a date and a time (``2026-11-29T09:00``, seconds,
fractions and the zone as ISO-8601 or RFC 3339 allow) is an instant here, read by
``datetime.fromisoformat``. The JSON schema stays
``{"type": "string", "format": "date-time"}``.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Final

from pydantic import AwareDatetime, BeforeValidator

__all__ = ["Instant"]

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


Instant = Annotated[AwareDatetime, BeforeValidator(_date_and_time)]
"""An ISO-8601 date and time with a time zone (a number is not a timestamp here)."""
