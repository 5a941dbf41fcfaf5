"""Numbers of a claim computed from the values of the cited calls.

A count or a percentage is derived from the plain values of one call (or from two of its
measurements: "99.2% full (53267660800 of 53687091200 bytes)"); a measurement from the
measurements of the same dimension, units converted (a difference of two sizes is a size).
Across several cited calls, values of each are combined the same way: "grew from 26,622 MiB
at 09:00 to 46,174 MiB at 10:40, 19,552 MiB more" subtracts a cell of one query from a cell
of another.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.quantities import MEASURED, Quantity, derived, holds

__all__ = ["across", "in_view"]

_TOTAL = re.compile(r"\b(?:total|in\s+all|combined|altogether|cumulative\w*|summed)\b", re.I)
_PER_VIEW = 20
"""Values of each call taken when several calls are combined."""


def _shown(quantity: Quantity, claim: ParsedClaim, dimension: bool) -> list[float]:
    """The claim's other numbers (in base units when ``dimension``)."""
    return [
        (other.base[0] if dimension else other.value)
        for other, _ in claim.quantities
        if other is not quantity
    ]


def _converted(quantity: Quantity) -> Quantity:
    """The quantity in its base unit (ms, bytes), keeping the rounding it is written with."""
    factor = quantity.base[0] / quantity.value if quantity.value else 1.0
    return Quantity(
        quantity.base[0], quantity.dimension, (quantity.base[0],), quantity.text,
        quantity.decimals, quantity.bound, factor,
    )  # fmt: skip


def _same(quantity: Quantity, view: CallView) -> list[float]:
    """The view's measurements of the quantity's dimension, in base units."""
    return [q.base[0] for q in view.quantities if q.dimension == quantity.dimension]


def _summed(quantity: Quantity, claim: ParsedClaim) -> bool:
    """A series is summed for a count, or for a measurement the claim calls a total."""
    return quantity.dimension not in MEASURED or _TOTAL.search(claim.text) is not None


def in_view(quantity: Quantity, view: CallView, claim: ParsedClaim) -> bool:
    """True when the call holds the number or it is computed from the call's values."""
    if any(holds(quantity, found) for found in view.quantities):
        return True
    if quantity.dimension is None or quantity.dimension == "percent":
        if derived(quantity, view.values, _shown(quantity, claim, False)):
            return True
        return any(
            derived(quantity, same, _shown(quantity, claim, False)) for same in _measured(view)
        )  # "99.2% full (53267660800 of 53687091200 bytes)", "67 times": two measurements
    same = _same(quantity, view)[:40]
    shown = _shown(quantity, claim, True)
    return derived(_converted(quantity), same, shown, _summed(quantity, claim))


def _measured(view: CallView) -> list[list[float]]:
    """The view's measurements by dimension (values as written, at most 40 each)."""
    by: dict[str, list[float]] = {}
    for found in view.quantities:
        if found.dimension in MEASURED:
            by.setdefault(found.dimension or "", []).append(found.value)
    return [values[:40] for values in by.values()]  # equal cells kept: used = size is 100%


def across(quantity: Quantity, views: Sequence[CallView], claim: ParsedClaim) -> bool:
    """A number computed from values of several cited calls (measurements of one dimension
    with measurements of the same dimension, units converted)."""
    if len(views) < 2:
        return False
    if quantity.dimension in MEASURED:
        bases = tuple(dict.fromkeys(v for view in views for v in _same(quantity, view)[:_PER_VIEW]))
        shown = _shown(quantity, claim, True)
        return derived(_converted(quantity), bases, shown, _summed(quantity, claim))
    if quantity.dimension not in {None, "percent"}:
        return False
    values = tuple(dict.fromkeys(v for view in views for v in view.values[:_PER_VIEW]))
    return derived(quantity, values, _shown(quantity, claim, False))
