"""Fields of evidence text whose value is zero (``idle=0``, ``free: 0``): they deny their
name ("no idle connection") and can show a resource used up."""

from __future__ import annotations

import re

__all__ = ["zero_keys"]

_ZERO_VALUE = re.compile(r"[=:][ \t]*0(?![\d.])")
_KEY_BEFORE = re.compile(r"\b([A-Za-z][A-Za-z_]*)[ \t]*$")


def zero_keys(text: str) -> list[str]:
    """The names of fields of value zero in ``text`` (``idle=0``, ``free: 0``)."""
    if "0" not in text:
        return []
    found: list[str] = []
    for m in _ZERO_VALUE.finditer(text):
        key = _KEY_BEFORE.search(text, max(0, m.start() - 64), m.start())
        if key is not None:
            found.append(key.group(1))
    return found
