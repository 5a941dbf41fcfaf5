"""The spellings a kind of trouble has in evidence: HTTP 429 and "Too Many Requests" are a
throttled, rejected, rate-limited request; 503 is unavailable; 504 and "deadline exceeded"
are timeouts; ECONNREFUSED is refused; exit 137 and OOM are out of memory.

A specific trouble word of a claim (``throttled``) is matched by any spelling of its kind in
the evidence, and a filter on a trouble column (``throttled > 0``) is named by any word of
its kind in the claim ("rate-limited"). A word of another kind stays unmatched.
"""

from __future__ import annotations

import re

__all__ = ["expressed", "names_trouble"]

_RATE_LIMIT = r"\b429\b|too\s+many\s+requests|rate[\s_-]?limit|throttl|reject"
_KINDS: dict[str, re.Pattern[str]] = {
    "throttl": re.compile(_RATE_LIMIT),
    "reject": re.compile(_RATE_LIMIT),
    "unavailable": re.compile(r"\b503\b|unavailable"),
    "timeout": re.compile(r"\b504\b|deadline\s+exceeded|timed[\s_-]?out|timeout"),
    "refus": re.compile(r"econnrefused|connection\s+refused|refus"),
    "oom": re.compile(
        r"out[\s_-]?of[\s_-]?memory|outofmemory|\boom|\bexit(?:ed)?(?:\s+code)?\s+137\b"
    ),
    "outofmemory": re.compile(r"out[\s_-]?of[\s_-]?memory|outofmemory|\boom"),
}


def expressed(specific: str, text: str) -> bool:
    """True when the lower-cased ``text`` spells the trouble of ``specific`` (a stem of the
    specific trouble words) in any way of its kind."""
    kind = _KINDS.get(specific)
    return kind is not None and kind.search(text) is not None


def names_trouble(word: str, claim: str) -> bool:
    """True when the claim (lower-cased) names the trouble a filtered column's word stands
    for in words of its kind (``throttled > 0`` named by "rate-limited")."""
    specific = next((name for name in _KINDS if word.startswith(name)), None)
    return specific is not None and expressed(specific, claim)
