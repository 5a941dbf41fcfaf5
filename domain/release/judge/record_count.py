"""How many of the grouped things a claim counts: "only one region", "all three partitions",
"both endpoints". A count spelled out before the word of a grouping column of the cited SQL
(``GROUP BY region``) is the number of distinct values the rows hold in that column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.words import stem

__all__ = ["check_group_count"]

_SPELLED = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_SPELLED |= {"eight": 8, "nine": 9, "ten": 10, "single": 1}
_COUNTED = re.compile(
    r"\b(?:(?:only|all|just|exactly|the)\s+(one|two|three|four|five|six|seven|eight|nine|ten|"
    r"single)|(both))\s+(?:of\s+the\s+)?([a-z][a-z-]*)",
    re.IGNORECASE,
)
_ID_PARTS = frozenset({"id", "no", "num", "number", "idx", "index", "key", "name"})


def check_group_count(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """A count of grouped things is the number of groups of the cited SQL result."""
    for found in _COUNTED.finditer(claim.text):
        spelled = (found.group(1) or "").lower()
        count = 2 if found.group(2) else _SPELLED[spelled]
        noun = stem(found.group(3).lower())
        for view in views:
            groups = _groups(view, noun)
            if groups is not None and groups != count:
                return Finding(GroundingReason.QUANTIFIER_UNSUPPORTED, found.group())
    return None


def _groups(view: CallView, noun: str) -> int | None:
    """The number of distinct values of the grouping column ``noun`` names, None when no
    grouping column of a complete SQL result is named by it."""
    shape = view.scope.shape
    data = view.content
    if shape is None or not isinstance(data, dict) or data.get("truncated"):
        return None
    columns, rows = data.get("columns"), data.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list):
        return None
    for column in shape.group_by:
        parts = {stem(p) for p in column.lower().split("_") if p and p not in _ID_PARTS}
        if noun in parts and column in columns:
            at = columns.index(column)
            return len({str(row[at]) for row in rows if isinstance(row, list) and len(row) > at})
    return None
