"""Rules on times and numbers: each bound to the cited call and to what it counts.

* A time matches an instant of the cited call at the precision it is written with; a
  "since"/"before" time that is a bound of the cited SQL must face the same way.
* A number is a value of the cited call (units converted) or computed from its values; a
  rate or a period is computed from a count and a stated span (``rates``).
* A code (after HTTP, status, code, exit, port) is a value of the cited call as written,
  never computed: HTTP 503 is not "504 less one".
* A number found only in one record (a SQL row, a log pattern) binds the claim's words around
  it: words that label another record of the call and not this one are a mismatch.
* A count from a SQL result carries the query's filter: the claim must name the value of
  every equality filter on a string (``status = 'failed'`` ⇒ "failed").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim, present
from factledger.domain.release.judge.computed_totals import (
    column_total,
    labelled_total,
    sum_written,
    written_ratio,
)
from factledger.domain.release.judge.derived_values import across, in_view
from factledger.domain.release.judge.evidence import CallView, Record
from factledger.domain.release.judge.instants import (
    ClaimTime,
    evidence_instants,
    matches,
    resolved,
)
from factledger.domain.release.judge.predicate_bounds import written_bound
from factledger.domain.release.judge.quantities import (
    MEASURED,
    Quantity,
    holds,
    swapped_magnitude,
    text_quantities,
)
from factledger.domain.release.judge.query_terms import query_term
from factledger.domain.release.judge.rates import (
    field_unit_differs,
    is_period,
    is_rate,
    per_unit_differs,
    rate_unit,
)
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.respective import in_order
from factledger.domain.release.judge.signed_values import signed_magnitude
from factledger.domain.release.judge.status_codes import status_code_grounded
from factledger.domain.release.judge.words import SPECIFIC_TROUBLE, TROUBLE, content_stems, stem

__all__ = ["check_numbers", "check_times"]

_OPPOSITE = {">=": ("<", "<="), "<=": (">", ">=")}
_CODE = re.compile(r"\b(?:http|status|code|exit|port|errno)\s*$", re.IGNORECASE)
_IDENTIFIER = re.compile(r"[._/]|\d")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
"""Where a camel-case name's parts meet (``OOMKilled``, ``CrashLoopBackOff``)."""


def _kind(token: str) -> str:
    """The shape of an identifier: a path, dotted (a host, a setting), snake-case, other."""
    if token.startswith("/"):
        return "path"
    return "dotted" if "." in token else "snake" if "_" in token else "other"


_UNIT_STEMS = frozenset(
    stem(word) for word in ("second", "seconds", "minute", "minutes", "hour", "hours", "day")
)
"""Units of time: the words of "per second", no label of a record (``ttl_seconds``)."""


def check_times(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Every time of the claim is an instant of the cited calls, facing their filters."""
    if not claim.times:
        return None
    instants = [instant for view in views for instant in view.instants]
    for item in claim.times:
        if not any(matches(item, instant) for instant in instants):
            return Finding(GroundingReason.TIME_MISMATCH, item.text)
        if _against_filter(item, views):
            return Finding(GroundingReason.FILTER_MISMATCH, item.text)
    return None


def _against_filter(item: ClaimTime, views: Sequence[CallView]) -> bool:
    """True when the time is a bound of the cited SQL facing only the other way."""
    if item.direction not in _OPPOSITE:
        return False
    facing: set[bool] = set()
    for view in views:
        shape = view.scope.shape
        for predicate in shape.predicates if shape else ():
            if predicate.op not in {">", ">=", "<", "<="}:
                continue
            bounds = evidence_instants(" ".join(predicate.values))
            if any(matches(item, bound) for bound in bounds):
                facing.add(predicate.op not in _OPPOSITE[item.direction])
    return facing == {False}


def check_numbers(
    claim: ParsedClaim,
    views: Sequence[CallView],
    bind: bool = True,
    known: frozenset[str] = frozenset(),
) -> Finding | None:
    """Every number is in the cited calls or computed from them, bound to what it counts."""
    measured = [q for view in views for q in view.quantities if q.dimension is not None]
    for quantity, position in claim.quantities:
        if status_code_grounded(claim, quantity, position, views):
            continue  # "answered with a 401" of ``"status": 401``: a status, not a count
        if written_bound(claim, position, views):
            continue  # "longer than 10 minutes" naming the query's ``duration_s > 600``
        term = query_term(claim, quantity, position, views)
        if term is not None:
            if not term:
                return Finding(GroundingReason.FILTER_MISMATCH, quantity.text)
            continue
        if _CODE.search(claim.text[max(0, position - 12) : position]):
            if not any(holds(quantity, q) for view in views for q in view.quantities):
                return Finding(GroundingReason.UNGROUNDED_NUMBER, quantity.text)
            continue
        if _POINTS.match(claim.text, position + len(quantity.text)):
            if _points(quantity, claim, position):
                continue  # "dropped by 92 percentage points, from 97% to 5%"
            return Finding(GroundingReason.UNGROUNDED_NUMBER, quantity.text)
        if field_unit_differs(claim, quantity, position, views):
            return Finding(GroundingReason.UNIT_MISMATCH, quantity.text)
        if rate_unit(claim, quantity, position) is not None and not _written(quantity, views):
            if _computed(quantity, position, claim, views):
                continue  # a rate is a count over a span, not any ratio of the evidence
            return Finding(GroundingReason.UNGROUNDED_NUMBER, quantity.text)
        if swapped_magnitude(quantity, measured):
            return Finding(GroundingReason.UNIT_MISMATCH, quantity.text)
        if _stated_otherwise(quantity, position, claim, views):
            return Finding(_missing(quantity, views), quantity.text)
        found = [view for view in views if in_view(quantity, view, claim)]
        if not found and _computed(quantity, position, claim, views):
            continue
        if not found and signed_magnitude(claim, quantity, views):
            continue  # "94.6 seconds behind" of an offset_ms of -94612.3
        if not found:
            return Finding(_missing(quantity, views), quantity.text)
        if per_unit_differs(claim, quantity, position, found):
            return Finding(GroundingReason.UNIT_MISMATCH, quantity.text)
        if not bind:
            continue
        clause = content_stems(claim.clause_at(position)) - _UNIT_STEMS
        if not any(_bound_to_record(quantity, clause, claim, view, position) for view in found):
            if labelled_total(quantity, claim, views):
                continue  # "55 of the 60 probes of smtp-relay.internal": its rows' total
            reason = (
                GroundingReason.FILTER_MISMATCH
                if any(view.record_kind == "rows" for view in found)
                else GroundingReason.UNGROUNDED_NUMBER
            )
            return Finding(reason, quantity.text)
        if not any(_names_filters(claim, view, known) for view in found):
            return Finding(GroundingReason.FILTER_MISMATCH, quantity.text)
    return None


_POINTS = re.compile(r"\s*(?:percentage\s+)?points?\b|\s*pp\b", re.IGNORECASE)


def _points(quantity: Quantity, claim: ParsedClaim, position: int) -> bool:
    """A change in percentage points is the difference of two percentages the claim writes
    (each then checked as a number of its own)."""
    shown = [q.value for q, at in claim.quantities if q.dimension == "percent" and at != position]
    return any(
        holds(quantity, Quantity(abs(a - b), None, ()))
        for i, a in enumerate(shown)
        for b in shown[i + 1 :]
    )


_LEAD = re.compile(r"((?:[a-z]{2,}\s+)?[a-z]{2,})\s+$", re.IGNORECASE)
_SUMMED = re.compile(r"\b(?:average\w*|mean|median|typical\w*|total|sum|combined)\b", re.I)


def _stated_otherwise(
    quantity: Quantity, position: int, claim: ParsedClaim, views: Sequence[CallView]
) -> bool:
    """True when the evidence states this measurement after the same words and another
    value ("timed out after 2 seconds" where the log says "timed out after 120s")."""
    if quantity.dimension not in MEASURED or _SUMMED.search(claim.text):
        return False  # an average or a total is computed, not stated
    lead = _LEAD.search(claim.text[max(0, position - 40) : position])
    if lead is None:
        return False
    pattern = re.compile(re.escape(lead.group(1).lower()) + r"\s+(\d[\d,.]*\s?[a-zµ%]*)")
    stated = [
        found
        for view in views
        for m in pattern.finditer(view.text)
        for found in text_quantities(m.group(1))
        if found.dimension == quantity.dimension
    ]
    return bool(stated) and not any(holds(quantity, found) for found in stated)


def _written(quantity: Quantity, views: Sequence[CallView]) -> bool:
    """True when a cited call holds the number as it is."""
    return any(holds(quantity, found) for view in views for found in view.quantities)


def _computed(
    quantity: Quantity, position: int, claim: ParsedClaim, views: Sequence[CallView]
) -> bool:
    """A number computed from several calls, a duration between instants, a rate or a
    period."""
    if across(quantity, views, claim) or _duration(quantity, claim, views):
        return True
    if sum_written(quantity, claim, views) or column_total(quantity, views):
        return True
    if labelled_total(quantity, claim, views) or written_ratio(quantity, position, claim, views):
        return True
    unit = rate_unit(claim, quantity, position)
    if unit is not None and is_rate(claim, quantity, unit, views):
        return True
    return is_period(claim, quantity, position, views)


def _duration(quantity: Quantity, claim: ParsedClaim, views: Sequence[CallView]) -> bool:
    """A duration between a time the claim writes and an instant of the evidence (or another
    time it writes), between the first and the last instant of one cited call, or the window
    of a search ("in the 40-minute search"). Two events
    picked from a long series are not used: they hold a span for almost any duration."""
    if quantity.dimension != "time":
        return False
    every = sorted({i for view in views for i in view.instants})
    if not every:
        return False
    written = [resolved(t, every[0]) for t in claim.times if t.seconds is not None]
    pairs = [(a, b) for a in written for b in (*every[:200], *written)]
    pairs += [(min(view.instants), max(view.instants)) for view in views if view.instants]
    pairs += [(v.scope.start, v.scope.end) for v in views if v.scope.start and v.scope.end]
    unit = quantity.base[0] / quantity.value if quantity.value else 1.0
    precision = unit * 10.0 ** (-quantity.decimals)  # "1.62 min" is precise to 0.6 s
    tolerance = precision / 2
    if quantity.bound == "about":
        tolerance = max(tolerance, quantity.base[0] * 0.05)  # "about 32 and a half minutes"
    return any(
        abs(abs((a - b).total_seconds()) * 1000 - quantity.base[0]) <= tolerance for a, b in pairs
    )


def _missing(quantity: Quantity, views: Sequence[CallView]) -> GroundingReason:
    """UNIT_MISMATCH when the value is there in another unit, else UNGROUNDED_NUMBER."""
    if quantity.dimension is None:
        return GroundingReason.UNGROUNDED_NUMBER
    for view in views:
        if any(found.value == quantity.value and found.dimension for found in view.quantities):
            return GroundingReason.UNIT_MISMATCH
    return GroundingReason.UNGROUNDED_NUMBER


def _bound_to_record(
    quantity: Quantity, clause: frozenset[str], claim: ParsedClaim, view: CallView, position: int
) -> bool:
    stems, text = claim.stems, claim.text
    if view.record_kind not in {"rows", "patterns"} or not view.records:
        return True
    holders = [
        record
        for record in view.records
        if any(holds(quantity, Quantity(n, None, (n,))) for n in record.numbers)
    ]
    if not holders:
        return True  # a total or a value outside the records
    if not any(record.group <= stems or _picked(record, view, stems) for record in holders):
        return False  # the row's group ("failed") is not what the claim counts
    if _names_other_key(text, view, holders):
        return False  # "shard 0" for a number of shard 2's row
    if len(holders) == len(view.records):
        return True
    others = frozenset().union(*(r.labels for r in view.records if r not in holders))
    scope = content_stems(view.scope.text)
    labels = frozenset().union(*(r.labels for r in view.records)) - scope
    if not clause & labels:
        clause = (
            stems - _UNIT_STEMS
        )  # "SELECT search facets, run 45,840 times": the row named before
    bound = any(not (clause & (others - record.labels - scope)) for record in holders)
    return bound or in_order(claim, position, view)


def _picked(record: Record, view: CallView, stems: frozenset[str]) -> bool:
    """True when the claim names a word of the row that no other row holds and no grouping
    word of another row ("sms.example.net kept resolving in 18 ms" of its only row, its
    ``rcode`` left unsaid)."""
    others = [other for other in view.records if other is not record]
    own = record.labels - frozenset().union(*(other.labels for other in others))
    foreign = frozenset().union(*(other.group for other in others)) - record.labels
    return bool(own & stems) and not foreign & stems


def _names_other_key(text: str, view: CallView, holders: list[Record]) -> bool:
    """True when the claim names a numbered grouping key of a row ("shard 0") and no row
    holding its number has that key."""
    named = view.named_keys(text)
    return bool(named) and not any(record.keys & named for record in holders)


def _names_filters(claim: ParsedClaim, view: CallView, known: frozenset[str]) -> bool:
    """The claim names the value of each equality filter on a word (``status = 'failed'``).

    A value that is a name of the run (the service searched, ``checkout-api``) may stay
    implicit when the claim names no other name of the run. A generic trouble value
    (failed, error) is named by any trouble word or error code of the claim."""
    shape = view.scope.shape
    if shape is None:
        return True
    for predicate in shape.predicates:
        if not predicate.strings or predicate.aggregate or predicate.op not in {"=", "in"}:
            continue
        if not evidence_instants(" ".join(predicate.values)) and not all(
            _mentions(claim, value, known, view.text) for value in predicate.values
        ):
            return False
    return True


def _mentions(claim: ParsedClaim, value: str, known: frozenset[str], view_text: str) -> bool:
    low = value.lower()
    if present(low, claim.text.lower()):
        return True  # named as filtered
    if low in known:
        text = claim.text.lower()
        named = (*claim.identifiers, *claim.compounds)
        return not any(name != low and present(name, text) for name in known) and all(
            present(name, view_text) for name in named
        )
    if _IDENTIFIER.search(value) and not any(
        _IDENTIFIER.search(token) and _kind(token) == _kind(value) and token.lower() != low
        for token in claim.identifiers
    ):
        return True  # "the renewal attempts" of host = 'api.shopfront.io', named nowhere else
    wanted = content_stems(value) or frozenset({stem(value)})
    if wanted <= claim.stems or value.lower() in claim.text.lower():
        return True
    parts = content_stems(_CAMEL.sub(" ", value))
    if len(parts) > 1 and parts <= claim.stems:
        return True  # ``reason = 'OOMKilled'`` named "OOM kills", by the parts of its name
    if wanted and all(any(s.startswith(t) for t in TROUBLE) for s in wanted):
        return bool(claim.identifiers) or any(
            s.startswith(t) for s in claim.stems for t in TROUBLE | SPECIFIC_TROUBLE
        )
    return False
