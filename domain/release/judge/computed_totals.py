"""Numbers a claim computes from the records of its evidence: sums, column totals and the
ratio of two numbers it writes.

* a sum of two or more of the claim's other numbers, each a value of the cited calls
  ("65,640 (20,470 + 21,880 + 23,290)");
* the total of one numeric column over every row of a cited SQL result, or over the rows
  a word of the claim picks out ("17 EXPIRED rejections across the three hosts" of three
  rows whose reason is EXPIRED), never over rows chosen at will;
* a multiplier written as "N times" between two numbers the claim writes, each a value of the
  cited calls ("from 43 ms to 2877 ms, roughly 67 times higher"): their ratio, within the
  rounding and the bound the multiplier is written with.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView, Record
from factledger.domain.release.judge.quantities import Quantity, close, holds

__all__ = ["column_total", "labelled_total", "sum_written", "written_ratio"]

_TIMES = re.compile(r"\s*(?:x\b|times\b|-?fold\b)", re.IGNORECASE)


def _written(quantity: Quantity, claim: ParsedClaim, views: Sequence[CallView]) -> list[Quantity]:
    """The claim's other numbers that are values of the cited calls as they are."""
    return [
        other
        for other, _ in claim.quantities
        if other is not quantity
        and any(holds(other, found) for view in views for found in view.quantities)
    ]


def sum_written(quantity: Quantity, claim: ParsedClaim, views: Sequence[CallView]) -> bool:
    """The sum of two or more of the claim's other numbers, each a value of the cited calls
    ("65,640 (20,470 + 21,880 + 23,290)", "353: 84, 212 and 57")."""
    parts = [p for p in _written(quantity, claim, views) if p.dimension == quantity.dimension]
    if len(parts) < 2 or quantity.value <= max(p.value for p in parts):
        return False
    return holds(quantity, Quantity(sum(p.value for p in parts), None, ()))


def _totals(rows: Sequence[Record]) -> list[float]:
    numbers = [record.numbers for record in rows]
    if len(numbers) < 2 or len({len(n) for n in numbers}) != 1:
        return []
    return [sum(column) for column in zip(*numbers, strict=True)]


def column_total(quantity: Quantity, views: Sequence[CallView]) -> bool:
    """The total of one numeric column over every row of a cited SQL result."""
    if quantity.dimension is not None:
        return False
    for view in views:
        if view.record_kind != "rows":
            continue
        if any(holds(quantity, Quantity(t, None, ())) for t in _totals(view.records)):
            return True
    return False


def labelled_total(quantity: Quantity, claim: ParsedClaim, views: Sequence[CallView]) -> bool:
    """The total of one numeric column over the rows a word of the claim labels (a word of
    some rows' cells and not of every row's)."""
    if quantity.dimension is not None:
        return False
    for view in views:
        records = view.records if view.record_kind == "rows" else ()
        if len(records) < 3:
            continue
        shared = frozenset.intersection(*(record.labels for record in records))
        for label in claim.stems & frozenset().union(*(r.labels for r in records)) - shared:
            picked = [record for record in records if label in record.labels]
            if any(holds(quantity, Quantity(t, None, ())) for t in _totals(picked)):
                return True
    return False


def written_ratio(
    quantity: Quantity, position: int, claim: ParsedClaim, views: Sequence[CallView]
) -> bool:
    """A multiplier ("67 times") that is the ratio of two numbers of one dimension the claim
    writes, each a value of the cited calls."""
    if quantity.dimension is not None:
        return False
    if _TIMES.match(claim.text, position + len(quantity.text)) is None:
        return False
    parts = _written(quantity, claim, views)
    for i, a in enumerate(parts):
        for b in parts[i + 1 :]:
            if a.dimension != b.dimension or not a.base[0] or not b.base[0]:
                continue
            ratio = max(a.base[0], b.base[0]) / min(a.base[0], b.base[0])
            if close(quantity.value, ratio, quantity):
                return True
    return False
