"""How many of a ranking a claim names: "the three slowest origins", "top 5", "four of the
worst minutes". A ranking is read from an ordered SQL result, so the count is the number of
rows the cited query returned (a LIMIT asks for at most that many; the rows are what was
found), spelled out or in digits. A claim citing no ordered SQL result is not judged here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_ranked_count"]

_SPELLED = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_SPELLED |= {"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20}
_COUNT = r"(\d{1,3}|" + "|".join(_SPELLED) + r")"
_RANK = (
    r"(?:high|low|bigg|larg|small|slow|fast|long|short|wors|bes|busi|hott|old|new|late|earli)"
    r"est|worst|best|most|top|first|last"
)
_RANKED = re.compile(
    rf"\b(?:top\s+{_COUNT}\b|{_COUNT}\s+(?:of\s+the\s+)?(?:{_RANK})\b"
    rf"|(?:the|all|only)\s+{_COUNT}\s+[a-z]+\s+(?:{_RANK})\b)",
    re.IGNORECASE,
)


def check_ranked_count(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """The count of a ranking is the number of rows of an ordered SQL result cited."""
    returned = {n for view in views if (n := _ordered_rows(view)) is not None}
    if not returned:
        return None
    for found in _RANKED.finditer(claim.text):
        written = next(group for group in found.groups() if group)
        count = _SPELLED.get(written.lower()) or int(written)
        if count not in returned:
            return Finding(GroundingReason.UNGROUNDED_NUMBER, found.group())
    return None


def _ordered_rows(view: CallView) -> int | None:
    """The number of rows of a SQL result whose query orders them, else None (rows cut short
    by the row cap are still the first of the ranking: a larger count is not shown)."""
    data = view.content
    if not isinstance(data, dict) or "order by" not in view.scope.text:
        return None
    rows = data.get("rows")
    return len(rows) if isinstance(rows, list) else None
