"""Database cell values as JSON scalars, the same way for every engine."""

from __future__ import annotations

import datetime
import math
from decimal import Decimal

from factledger.domain.json_types import JsonScalar

__all__ = ["to_json_scalar"]


def to_json_scalar(value: object) -> JsonScalar:
    """A JSON scalar for one cell: numbers stay numbers, times become ISO-like text."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Decimal):
        return _decimal(value)
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return _duration(value)
    if isinstance(value, bytes | bytearray | memoryview):
        data = bytes(value)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return "0x" + data.hex()
    return str(value)


def _decimal(value: Decimal) -> JsonScalar:
    if not value.is_finite():
        return str(value)
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and exponent >= 0:
        return int(value)
    as_float = float(value)
    if Decimal(repr(as_float)) == value:
        return as_float
    return str(value)


def _duration(value: datetime.timedelta) -> str:
    """MySQL's TIME format: ``[-]HH:MM:SS[.ffffff]``."""
    sign = "-" if value < datetime.timedelta(0) else ""
    remaining = abs(value)
    seconds = remaining.days * 86400 + remaining.seconds
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{sign}{hours:02d}:{minutes:02d}:{secs:02d}"
    if remaining.microseconds:
        text += f".{remaining.microseconds:06d}"
    return text
