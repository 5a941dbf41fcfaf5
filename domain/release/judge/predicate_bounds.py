"""A bound a claim writes ("longer than 10 minutes", "within 30 s", "at least 5 GB") against
the numeric comparisons of the cited SQL (``duration_s > 600``), compared as bounds.

The predicate's value is read in the unit its column names (``duration_s``: seconds,
``size_mb``: MB) and the claim's in its own, so "more than 10 minutes" names ``> 600`` on a
column in seconds. A bound faces up ("more than", "longer than", "over", "above", "at least",
"exceeding") or down ("less than", "under", "below", "within", "at most", "no more than",
"up to").

* A claim that writes the predicate's bound, facing its way, names it: the number is the
  query's and a negative observation over it is no broader than its search.
* A claim bound facing the predicate's way but looser ("over 30 s" where the query asked for
  ``> 300``) speaks of rows the query never looked at; the predicate's own value facing the
  other way ("under 300 s") speaks of the rows it left out: both are ``FILTER_MISMATCH``.
  A tighter bound ("over 1,500 s") is a bound on the rows found, left to the number rules.

Spelled numbers with a unit ("longer than five minutes") are read as their digits.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.quantities import Quantity, key_unit, text_quantities
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.spelled import spelled_quantities
from factledger.domain.release.judge.sql_predicates import Predicate

__all__ = ["bound_cue", "check_bounds", "names_bound", "written_bound"]

_DOWN: Final = re.compile(
    r"(?:\b(?:less|fewer|shorter|lower|smaller|earlier)\s+than|\bunder|\bbelow|\bwithin|"
    r"\bat\s+most|\b(?:no|not)\s+(?:more|longer|greater|higher)\s+than|\bup\s+to|\binside)"
    r"\s+(?:of\s+)?$",
    re.IGNORECASE,
)
_UP: Final = re.compile(
    r"(?:\b(?:more|longer|greater|higher|larger|bigger|later)\s+than|\bover|\babove|"
    r"\bexceed\w*|\bat\s+least|\bbeyond|\bpast)\s+$",
    re.IGNORECASE,
)
_FACING: Final = {">": "up", ">=": "up", "<": "down", "<=": "down"}
_NEVER: Final = re.compile(
    r"\b(?:never|(?:did|does|do|was|were|has|have|had)\s*n[o']t)\s+(?:[a-z]+\s+){0,3}?"
    r"(?:for\s+)?$",
    re.IGNORECASE,
)
"""Before a bound, a denial: "never ran for more than", "did not take longer than"."""


def _facing(text: str, position: int) -> tuple[str, int] | None:
    """Which way the bound before ``position`` faces, and where its words start."""
    before = text[max(0, position - 32) : position]
    for way, pattern in (("down", _DOWN), ("up", _UP)):
        found = pattern.search(before)
        if found is not None:
            return way, position - len(before) + found.start()
    return None


def _bounds(claim: ParsedClaim) -> Iterator[tuple[Quantity, int, str, int]]:
    """Each quantity of the claim written as a bound: (quantity, where, facing, where its
    bound words start)."""
    for quantity, position in (*claim.quantities, *spelled_quantities(claim.text)):
        facing = _facing(claim.text, position)
        if facing is not None:
            yield quantity, position, facing[0], facing[1]


def _predicates(
    views: Sequence[CallView], found: bool = False
) -> Iterator[tuple[Predicate, Quantity]]:
    """The numeric comparisons of the cited SQL, each with its value in its column's unit
    (with ``found``, only of queries that returned rows)."""
    for view in views:
        shape = view.scope.shape
        if found and not view.records:
            continue
        for predicate in shape.predicates if shape else ():
            if predicate.op not in _FACING or predicate.strings or len(predicate.values) != 1:
                continue
            unit = key_unit(predicate.column.split(".")[-1])
            value = next(iter(text_quantities(f"{predicate.values[0]} {unit or ''}")), None)
            if value is not None and not predicate.aggregate:
                yield predicate, value


def _same(claimed: Quantity, value: Quantity) -> bool | None:
    """True when the two are one amount (units converted), None when they cannot be compared
    (a measure against a plain number, or measures of two dimensions)."""
    if claimed.dimension != value.dimension:
        return None
    return any(abs(a - b) <= 1e-9 + 0.005 * abs(b) for a in claimed.base for b in value.base)


def _looser(claimed: Quantity, value: Quantity, facing: str) -> bool:
    a, b = claimed.base[0], value.base[0]
    return a < b * 0.995 if facing == "up" else a > b * 1.005


def _compared(views: Sequence[CallView]) -> bool:
    """True when some cited SQL compares a column with a number (a cheap first test)."""
    return any(
        p.op in _FACING and not p.strings
        for view in views
        if view.scope.shape is not None
        for p in view.scope.shape.predicates
    )


def names_bound(claim: ParsedClaim, predicate: Predicate, views: Sequence[CallView]) -> bool:
    """True when the claim writes the predicate's bound, facing its way."""
    if predicate.op not in _FACING or predicate.strings:
        return False
    for candidate, value in _predicates(views):
        if candidate != predicate:
            continue
        for quantity, _, facing, _ in _bounds(claim):
            if facing == _FACING[predicate.op] and _same(quantity, value):
                return True
    return False


def written_bound(claim: ParsedClaim, position: int, views: Sequence[CallView]) -> bool:
    """True when the claim's number at ``position`` is a bound of the cited SQL it names."""
    if not _compared(views):
        return False
    for quantity, at, facing, _ in _bounds(claim):
        if at != position:
            continue
        for predicate, value in _predicates(views):
            if facing == _FACING[predicate.op] and _same(quantity, value):
                return True
    return False


def bound_cue(claim: ParsedClaim, views: Sequence[CallView]) -> str | None:
    """ "never ran for more than 10 minutes": the denial of a search for values past the
    cited bound that found none, when the claim writes that bound facing its way."""
    if not _compared(views):
        return None
    for quantity, _, facing, start in _bounds(claim):
        window = max(0, start - 48)
        denial = _NEVER.search(claim.text[window:start])
        if denial is None:
            continue
        for predicate, value in _predicates(views):
            if facing == _FACING[predicate.op] and _same(quantity, value):
                return claim.text[window + denial.start() : start]
    return None


def check_bounds(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """A bound of the claim looser than the cited SQL's, or the SQL's own bound facing the
    other way, counts rows the query did not search. Of a query that found nothing, the
    bound facing the other way is what it showed ("stayed below 0.9" of ``ratio >= 0.9``)."""
    if not _compared(views):
        return None
    for quantity, position, facing, _ in _bounds(claim):
        for predicate, value in _predicates(views, found=True):
            same = _same(quantity, value)
            if same is None:
                continue
            if facing == _FACING[predicate.op]:
                wrong = not same and _looser(quantity, value, facing)
            else:
                wrong = same
            if wrong:
                end = position + len(quantity.text)
                return Finding(GroundingReason.FILTER_MISMATCH, claim.text[position:end].strip())
    return None
