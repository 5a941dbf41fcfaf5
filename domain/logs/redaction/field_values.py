"""Redaction of a structured field's value (a JSON log record's ``fields``): wholly when its
key names a credential (unless the value-shape rule keeps it), else every text in it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from factledger.domain.json_types import JsonValue
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.secret_keys import is_secret_key
from factledger.domain.logs.redaction.value_shapes import keeps_value

__all__ = ["redact_field"]

_SECRET: Final = Placeholder.SECRET.value


def redact_field(redact: Callable[[str], str], key: str, value: JsonValue) -> JsonValue:
    """The value under ``key``, redacted (``redact`` redacts one text)."""
    if is_secret_key(key):
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int | float) and keeps_value(key, str(value)):
            return value
        if not isinstance(value, str) or not keeps_value(key, value):
            return _SECRET
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_field(redact, key, item) for item in value]
    if isinstance(value, dict):
        return {redact(name): redact_field(redact, name, item) for name, item in value.items()}
    return value
