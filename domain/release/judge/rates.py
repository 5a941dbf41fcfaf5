"""Rates and periods: numbers computed from a count and a span of time.

* A count followed by "a minute", "per second", "an hour", "/min" is a rate: a number the
  claim writes (or, when it writes none, one of the cited call) divided by a span the claim
  or the query names, in that unit ("45,840 times between 16:05 and 16:10, about 9,168 a
  minute"). It is nothing else: not any ratio of the evidence.
* A count given per one unit where the evidence gives it per another is a unit mismatch.
* A duration after "every" is a period: such a span divided by such a count ("180 messages
  in the hour, one every 20 seconds").

The spans are only those the claim or the cited query states: a duration written in the
claim, the time between two of the claim's times, the window of a logs search, and the
time bounds of a SQL query. Spans between any two events of the evidence are not used: a
long series holds a span for almost any rate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from itertools import combinations

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.instants import evidence_instants, resolved
from factledger.domain.release.judge.quantities import Quantity, close, holds, text_quantities
from factledger.domain.release.judge.rate_fields import size_rates

__all__ = ["field_unit_differs", "is_period", "is_rate", "per_unit_differs", "rate_unit"]

_PER = re.compile(
    r"\s*(?:[a-z]+\s+){0,3}?(?:a|an|per|each|every|/)\s*"
    r"(second|sec|s|minute|min|hour|hr|h|day)s?\b",
    re.IGNORECASE,
)
_UNIT_MS = {"second": 1e3, "sec": 1e3, "s": 1e3, "minute": 6e4, "min": 6e4}
_UNIT_MS |= {"hour": 3.6e6, "hr": 3.6e6, "h": 3.6e6, "day": 8.64e7}
_EVERY = re.compile(r"\bevery\s*$", re.IGNORECASE)
_ABBREVIATED = re.compile(r"\s*(?:[a-z]+\s+)?(?:(rps|qps|tps|req/s|/s)|(rpm|/min))\b", re.I)
_MAX_COUNTS = 60


def rate_unit(claim: ParsedClaim, quantity: Quantity, position: int) -> float | None:
    """The milliseconds of the unit a count is given per ("a minute" → 60,000), if any."""
    if quantity.dimension is not None:
        return None
    end = position + len(quantity.text)
    found = _PER.match(claim.text, end)
    if found is not None:
        return _UNIT_MS[found.group(1).lower()]
    short = _ABBREVIATED.match(claim.text, end)
    return None if short is None else 1e3 if short.group(1) else 6e4


def field_unit_differs(
    claim: ParsedClaim, quantity: Quantity, position: int, views: Sequence[CallView]
) -> bool:
    """True when the number is the value of a rate field (``limit_rps=50``) and the claim
    gives it per another unit of time, not that field's ("50 requests a minute"); a size
    of a size-rate field (``apply_mb_per_sec``) likewise ("96.4 MB a minute")."""
    if quantity.dimension == "size":
        return _size_rate_differs(claim, quantity, position, views)
    unit = rate_unit(claim, quantity, position)
    if unit is None:
        return False
    units = {
        u for view in views for value, u in view.rates if close(quantity.value, value, quantity)
    }
    return bool(units) and unit not in units


def _size_rate_differs(
    claim: ParsedClaim, quantity: Quantity, position: int, views: Sequence[CallView]
) -> bool:
    found = _PER.match(claim.text, position + len(quantity.text))
    if found is None:
        return False
    units = {
        per
        for view in views
        for written, per in size_rates(view.content)
        if any(holds(quantity, field) for field in text_quantities(written))
    }
    return bool(units) and _UNIT_MS[found.group(1).lower()] not in units


def per_unit_differs(
    claim: ParsedClaim, quantity: Quantity, position: int, views: Sequence[CallView]
) -> bool:
    """True when the claim gives a count per one unit of time and the evidence gives the same
    count per another ("2,000 messages a minute" where the runbook says "a second")."""
    unit = rate_unit(claim, quantity, position)
    if unit is None:
        return False
    value = int(quantity.value) if quantity.value.is_integer() else quantity.value
    spellings = {f"{value}", f"{value:,}"} if isinstance(value, int) else {f"{value}"}
    for view in views:
        for spelling in spellings:
            for m in re.finditer(rf"(?<![\d.,]){re.escape(spelling)}(?![\d]|[.,]\d)", view.text):
                per = _PER.match(view.text, m.end())
                if per is not None and _UNIT_MS[per.group(1).lower()] != unit:
                    return True
    return False


def is_rate(
    claim: ParsedClaim, quantity: Quantity, unit_ms: float, views: Sequence[CallView]
) -> bool:
    """True when the rate is a count of the evidence or the claim over a stated span."""
    counts = _counts(claim, quantity, views)
    for span in _spans(claim, views):
        if span <= 0:
            continue
        per_unit = span / unit_ms
        if any(close(quantity.value, count / per_unit, quantity) for count in counts):
            return True
    return False


def is_period(
    claim: ParsedClaim, quantity: Quantity, position: int, views: Sequence[CallView]
) -> bool:
    """True when a duration after "every" is a stated span divided by a count."""
    if quantity.dimension != "time" or not _EVERY.search(
        claim.text[max(0, position - 12) : position]
    ):
        return False
    scale = quantity.base[0] / quantity.value if quantity.value else 1.0
    counts = [c for c in _counts(claim, quantity, views) if c >= 1]
    return any(
        close(quantity.base[0], span / count, quantity, scale)
        for span in _spans(claim, views)
        for count in counts
    )


def _counts(claim: ParsedClaim, quantity: Quantity, views: Sequence[CallView]) -> list[float]:
    written = [q.value for q, _ in claim.quantities if q is not quantity and q.dimension is None]
    if written:
        return written  # the count the claim divides: "240 failures ..., 6 a minute"
    return list(dict.fromkeys(value for view in views for value in view.values[:_MAX_COUNTS]))


def _spans(claim: ParsedClaim, views: Sequence[CallView]) -> list[float]:
    """Stated spans in milliseconds."""
    spans = [q.base[0] for q, _ in claim.quantities if q.dimension == "time"]
    anchor = _anchor(views)
    if anchor is not None:
        written = [resolved(t, anchor) for t in claim.times if t.seconds is not None]
        spans += [abs((a - b).total_seconds()) * 1000 for a, b in combinations(written, 2)]
    for view in views:
        scope = view.scope
        if scope.start is not None and scope.end is not None:
            spans.append((scope.end - scope.start).total_seconds() * 1000)
        bounds = _sql_bounds(view)
        spans += [abs((a - b).total_seconds()) * 1000 for a, b in combinations(bounds, 2)]
    return list(dict.fromkeys(spans))


def _anchor(views: Sequence[CallView]) -> datetime | None:
    instants = [instant for view in views for instant in view.instants[:1]]
    return instants[0] if instants else None


def _sql_bounds(view: CallView) -> list[datetime]:
    shape = view.scope.shape
    if shape is None:
        return []
    return [
        instant
        for predicate in shape.predicates
        if predicate.op in {">", ">=", "<", "<="}
        for instant in evidence_instants(" ".join(predicate.values))
    ]
