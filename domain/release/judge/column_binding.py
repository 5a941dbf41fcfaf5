"""A number named by a column it is not in: "the limiter allowed 1,627 requests" of a row
whose ``rejected`` is 1,627 and whose ``allowed`` is 187.

A result's numeric columns say what their numbers count. When the word right next to a
claim's number (the verb before it, the noun after it) is the name of one numeric column of a
cited result while the number is a cell of other columns only, and no column holding it is
named among the words around it ("the 36 lag samples" of ``samples`` 36 beside ``max_lag``),
the claim counts something else than the number it writes: FILTER_MISMATCH.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.record_quantifiers import table_of
from factledger.domain.release.judge.result_values import cell_number
from factledger.domain.release.judge.words import content_stems

__all__ = ["check_column_binding"]

_BEFORE = re.compile(r"([A-Za-z]+)\s+(?:[~≈]\s*)?$")
_AFTER = re.compile(r"\s+(?:(?:were|was|are|is|got|have|had|been)\s+)*([A-Za-z]+)")
_HOW = frozenset({"max", "min", "avg", "sum", "total", "count", "mean", "median"})
"""Words of a column name that say how it was computed, not what it counts."""


def _column_words(name: str) -> frozenset[str]:
    return content_stems(name.replace("_", " ")) - _HOW


def _neighbours(claim: ParsedClaim, start: int, text: str) -> frozenset[str]:
    """The stems of the words right before and right after the number at ``start`` (past an
    auxiliary: "1,627 were rejected")."""
    found: set[str] = set()
    before = _BEFORE.search(claim.text[max(0, start - 30) : start])
    if before:
        found |= content_stems(before[1])
    after = _AFTER.match(claim.text, start + len(text))
    if after:
        found |= content_stems(after[1])
    return frozenset(found)


def _wide(claim: ParsedClaim, start: int) -> frozenset[str]:
    """The stems of two words before the number and three after it ("the 36 lag samples"),
    none past another number."""
    starts = [at for _, at in claim.quantities]
    low = max((at for at in starts if at < start), default=-1)
    high = min((at for at in starts if at > start), default=len(claim.text))
    before = [w.stem for w in claim.words if low < w.start < start][-2:]
    after = [w.stem for w in claim.words if start < w.start < high][:3]
    return frozenset(before + after)


def _misnamed(near: frozenset[str], wide: frozenset[str], value: float, view: CallView) -> bool:
    columns, rows = table_of(view)
    numeric = [
        index
        for index in range(len(columns))
        if rows and all(cell_number(row[index]) is not None or row[index] is None for row in rows)
    ]
    holding = {i for i in numeric if any(cell_number(row[i]) == value for row in rows)}
    if not holding:
        return False
    named = {i for i in numeric if (words := _column_words(columns[i])) and words <= near}
    own = {i for i in holding if (words := _column_words(columns[i])) and words <= wide}
    return bool(named) and not named & holding and not own


def check_column_binding(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Each number named, by the word next to it, after a numeric column is in that
    column."""
    for quantity, start in claim.quantities:
        if quantity.dimension is not None:
            continue
        near = _neighbours(claim, start, quantity.text or "")
        wide = _wide(claim, start)
        if near and any(_misnamed(near, wide, quantity.value, view) for view in views):
            return Finding(GroundingReason.FILTER_MISMATCH, quantity.text or str(quantity.value))
    return None
