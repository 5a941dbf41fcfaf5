"""Log levels a claim names are levels of its cited log calls.

Upper-case words are ordinary words to the judge (a claim may shout), so a level written as a
level (``WARN``, ``ERROR-level``, ``at error level``, ``level=warn``) is read here: when a cited
call is a log search (it counts levels), the level must be one of its levels, spelled any of
the usual ways (``WARN`` is ``WARNING``, ``ERR`` is ``ERROR``, ``CRIT`` is ``CRITICAL``). A
claim that says the timeouts were warnings when the search counted errors is about other
lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from factledger.domain.release.judge.claims import ParsedClaim, present
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_levels"]

_SPELLINGS: Final = {
    "trace": ("trace",),
    "debug": ("debug",),
    "info": ("info", "information", "informational"),
    "notice": ("notice",),
    "warn": ("warn", "warning"),
    "warning": ("warn", "warning"),
    "error": ("error", "err"),
    "err": ("error", "err"),
    "fatal": ("fatal",),
    "critical": ("critical", "crit"),
    "crit": ("critical", "crit"),
    "severe": ("severe",),
}
_NAMES: Final = "|".join(sorted(_SPELLINGS, key=len, reverse=True))
_SHOUTED: Final = re.compile(rf"\b({_NAMES.upper()})\b")
_AS_LEVEL: Final = re.compile(
    rf"\b({_NAMES})[- ]level\b|\blevel\s*[=:]?\s*({_NAMES})\b", re.IGNORECASE
)


def _named(text: str) -> list[str]:
    """The levels the text names as levels, lower-cased, as written."""
    found = [m.group(1) for m in _SHOUTED.finditer(text)]
    found += [m.group(1) or m.group(2) for m in _AS_LEVEL.finditer(text)]
    return [name for name in found if name]


def check_levels(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Each level the claim names is a level of a cited log search."""
    logs = [view for view in views if "level_counts" in view.text]
    if not logs:
        return None
    for name in _named(claim.text):
        spellings = _SPELLINGS[name.lower()]
        if not any(present(s, view.text) for view in logs for s in spellings):
            return Finding(GroundingReason.UNGROUNDED_ENTITY, name)
    return None
