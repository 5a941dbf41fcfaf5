"""Numbers of several records in one clause, each in the order the clause names its record:
"IE had twice as many failed quotes as NL (28 vs 14)" binds 28 to IE's row and 14 to NL's;
the multiplier ("2x", "three times as many") is a ratio of the numbers.

A clause that names two or more records of a call (by a label only that record holds) and
writes a number held only by each, in the same order, states them respectively; the same
numbers in the other order ("IE ... as NL (14 vs 28)") are swapped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.quantities import Quantity, holds
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.words import content_stems

__all__ = ["check_multipliers", "in_order"]

_SPELLED = {"two": 2.0, "three": 3.0, "four": 4.0, "five": 5.0, "ten": 10.0, "twice": 2.0}
_MULTIPLIER = re.compile(
    r"\b(\d+(?:\.\d+)?|two|three|four|five|ten)\s*(?:x|times)\s+(?:as\s+(?:many|much|\w+)|more)\b"
    r"|\b(twice)\s+as\b",
    re.IGNORECASE,
)


def in_order(claim: ParsedClaim, position: int, view: CallView) -> bool:
    """True when the clause at ``position`` names records and gives each its own number, in
    the same order."""
    start, end = next(((a, b) for a, b in claim.clauses if a <= position < b), (0, 0))
    records = view.records
    scope = content_stems(view.scope.text)
    named: list[tuple[int, int]] = []
    for index, record in enumerate(records):
        others = frozenset().union(*(r.labels for r in records if r is not record))
        own = record.labels - others - scope
        found = [w.start for w in claim.words if start <= w.start < end and w.stem in own]
        if found:
            named.append((min(found), index))
    numbered: list[tuple[int, int]] = []
    for quantity, at in claim.quantities:
        holders = [i for i, r in enumerate(records) if _holds(quantity, r.numbers)]
        if start <= at < end and len(holders) == 1:
            numbered.append((at, holders[0]))
    if len(named) < 2 or len(numbered) < 2:
        return False
    return [i for _, i in sorted(named)] == [i for _, i in sorted(numbered)]


def _holds(quantity: Quantity, numbers: tuple[float, ...]) -> bool:
    return any(holds(quantity, Quantity(n, None, (n,))) for n in numbers)


def check_multipliers(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """ "2x as many", "three times as much", "twice as": the ratio of two numbers the claim
    writes or the cited calls hold (within rounding)."""
    for found in _MULTIPLIER.finditer(claim.text):
        written = (found.group(1) or found.group(2)).lower()
        factor = _SPELLED.get(written) or float(written)
        numbers = [q.value for q, _ in claim.quantities] + [v for w in views for v in w.values]
        ratios = [a / b for a in numbers for b in numbers if b and a >= b]
        if not any(abs(ratio - factor) <= max(0.05 * factor, 0.05) for ratio in ratios):
            return Finding(GroundingReason.UNGROUNDED_NUMBER, found.group())
    return None
