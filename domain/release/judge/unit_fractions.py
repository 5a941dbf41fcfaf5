"""A fraction of a unit written in words: "within a quarter of an hour" of ``15 minutes``,
"half a second" of ``500 ms``.

A fraction (half, a third, a quarter, three quarters) of a unit of time is a duration like
any other: when the cited calls hold durations, one of them must be it (units converted,
within a hundredth); "a quarter of a day" against ``15 minutes`` is UNIT_MISMATCH.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_unit_fractions"]

_FRACTIONS = {"half": 0.5, "third": 1 / 3, "quarter": 0.25, "three quarters": 0.75}
_UNITS = {
    "second": 1_000.0,
    "minute": 60_000.0,
    "hour": 3_600_000.0,
    "day": 86_400_000.0,
    "week": 604_800_000.0,
}
_FRACTION_OF = re.compile(
    r"\b(?:an?\s+|one\s+)?(three\s+quarters|half|third|quarter)\s+(?:of\s+)?an?\s+"
    r"(second|minute|hour|day|week)\b",
    re.IGNORECASE,
)


def check_unit_fractions(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Each fraction of a unit of time is a duration of the cited calls, when they hold
    any."""
    durations = [
        base
        for view in views
        for quantity in view.quantities
        if quantity.dimension == "time"
        for base in quantity.base
    ]
    if not durations:
        return None
    for found in _FRACTION_OF.finditer(claim.text):
        fraction = _FRACTIONS[" ".join(found[1].lower().split())]
        wanted = fraction * _UNITS[found[2].lower()]
        if not any(abs(base - wanted) <= 0.01 * wanted for base in durations):
            return Finding(GroundingReason.UNIT_MISMATCH, found.group().strip())
    return None
