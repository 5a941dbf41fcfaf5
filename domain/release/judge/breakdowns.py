"""A count and its breakdown add up: "21 starts: 18 of 4.18.0 and 3 of 4.17.3".

A claim that writes a count, then after a colon or in parentheses the counts it is made of
("110 emails: 95 dead and 15 queued", "65,640 (20,470 + 21,880 + 23,290)"), states that
the parts make the whole. Each number may be a value of the evidence and the sum still be
wrong ("21 starts: 15 of 4.18.0 and 3 of 4.17.3" when 15 is the kills, not the starts):
parts that do not add up to the count are UNGROUNDED_NUMBER, quoting the count. Only plain
counts are held (a duration or a percentage may be a share or a rate), and parts written
as "N of M" are a fraction, not a breakdown.
"""

from __future__ import annotations

import re
from itertools import pairwise
from math import isclose
from typing import Final

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.quantities import Quantity
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_breakdowns"]

_OPENS: Final = re.compile(r":\s|\(")
_CLOSES: Final = re.compile(r"[.;)](?:\s|$)")
_JOINED: Final = re.compile(r",|\band\b|\+", re.IGNORECASE)
"""Between two parts: a comma, "and" or "+"."""
_FRACTION: Final = re.compile(r"\b(?:of|out\s+of|per|in|every)\s+(?:the\s+|its\s+)?$", re.I)


def check_breakdowns(claim: ParsedClaim) -> Finding | None:
    """The counts after a colon or in parentheses add up to the count before them."""
    if len(claim.quantities) < 3 or _OPENS.search(claim.text) is None:
        return None
    for opened in _OPENS.finditer(claim.text):
        closed = _CLOSES.search(claim.text, opened.end())
        stop = closed.start() if closed else len(claim.text)
        sentence = claim.text.rfind(". ", 0, opened.start()) + 1
        before = [(q, at) for q, at in claim.quantities if sentence <= at < opened.start()]
        parts = [(q, at) for q, at in claim.quantities if opened.end() <= at < stop]
        if not before or not _breakdown(claim.text, parts):
            continue
        total = before[-1][0]
        if total.dimension is not None or total.decimals:
            continue
        if not isclose(sum(q.value for q, _ in parts), total.value):
            return Finding(GroundingReason.UNGROUNDED_NUMBER, total.text)
    return None


def _breakdown(text: str, parts: list[tuple[Quantity, int]]) -> bool:
    """True when ``parts`` are two or more plain counts joined by commas, "and" or "+"."""
    if len(parts) < 2 or any(q.dimension is not None or q.decimals for q, _ in parts):
        return False
    for (left, at), (_, next_at) in pairwise(parts):
        between = text[at + len(left.text) : next_at]
        if not _JOINED.search(between) or _FRACTION.search(between):
            return False
    return True
