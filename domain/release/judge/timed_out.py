"""The words "timed out" and "time-out" read as one word, "timeout", in claims and evidence."""

from __future__ import annotations

import re

__all__ = ["joined_timeout"]

_TIMED_OUT = re.compile(r"\btim(?:ed|e)[\s-]out\b", re.IGNORECASE)
_TIMED_OUT_HINT = re.compile(r"tim(?:ed|e)[\s-]out")
"""The same words in a lower-cased text: a quick test before the case-blind pattern."""
_CASE_BLIND_I = ("\u0130", "\u0131")
"""The two letters besides i and I that a case-blind "i" matches and lower() does not make i."""


def joined_timeout(text: str) -> str:
    """``text`` with "timed out" and "time-out" as one word, padded to the phrase's length."""
    hinted = _TIMED_OUT_HINT.search(text.lower()) is not None
    if not hinted and all(letter not in text for letter in _CASE_BLIND_I):
        return text
    return _TIMED_OUT.sub(_one_word, text)


def _one_word(found: re.Match[str]) -> str:
    return "timeout".ljust(len(found.group()))
