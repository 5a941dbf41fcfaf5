"""Numbers written as words, held like numbers written in digits.

Three forms are read; a spelled count of things ("three runs", "the four worst minutes") is
left to the rules on records, rankings and time buckets:

* a spelled number before a unit ("three minutes", "a dozen seconds", "three-hour") is that
  quantity: it must be in the cited calls or computed from them, as "3 minutes" would;
* a spelled number of times ("logged five times", "restarted twice") is that count;
* a multiplier of a number the claim writes ("190, twice the 94 of the minute before",
  "more than twice the 10-minute interval", "half the 40") is the ratio of the claim's number
  before it to the number after it, within a tenth (a fifth with "about"), or on the side a
  bound says ("more than twice": at least two).

A spelled number after "the", "each of", "first", "last" counts buckets or rows ("in the
twelve minutes from 09:00", "each of the three minutes"): it is not read here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from attrs import evolve

from factledger.domain.release.judge.claims import ParsedClaim, parse_claim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.number_rules import check_numbers
from factledger.domain.release.judge.quantities import Quantity
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.spelled import (
    NAMES,
    SPELLED_WORDS,
    UNIT,
    WITH_UNIT,
    spelled_value,
)

__all__ = ["check_spelled"]

_TIMES: Final = re.compile(
    rf"(?<![\d,.])\b(?:(\d+|{NAMES})\s+times|(twice))\b(?!\s+(?:as|more|less|fewer|the|that\s+of|than|over|"
    r"longer|shorter|higher|lower|larger|smaller|bigger|faster|slower|per|a|an|its|their|"
    r"what|in\s+a\s+row)\b)",
    re.IGNORECASE,
)
_COUNTING: Final = re.compile(
    r"\b(?:the|these|those|each\s+of|all|first|last|next|every\s+one\s+of)\s+$", re.I
)
"""Before a spelled number, words that make it a count of buckets or rows."""
_MULTIPLIER: Final = re.compile(
    rf"(?<![\d,.])\b(?:(twice)|(half)|(\d+(?:\.\d+)?|{NAMES})\s+times)\s+"
    r"(?:as\s+(?:many|much|long|high|large)\s+as(?:\s+the)?|that\s+of(?:\s+the)?|the|its|their)\s+",
    re.IGNORECASE,
)
_REACH: Final = 40
"""Most characters between a multiplier and the number it multiplies."""
_BOUNDED: Final = re.compile(
    r"\b(?:at\s+least|at\s+most|(?:more|less|fewer|longer|shorter|later|earlier)\s+than|"
    r"over|under|up\s+to|within|about|around|roughly|nearly|almost|some)\s+$",
    re.IGNORECASE,
)
"""Before a spelled number, a bound or an approximation: held by the number and bound
rules (a bound of the cited query, "longer than five minutes", faces it as a bound does)."""
_APPROXIMATE: Final = re.compile(r"\b(?:about|around|roughly|nearly|almost|some)\s+$", re.I)
"""An approximation before a spelled quantity ("about nine seconds"): it is grounded as
"about 9 seconds" would be, within the tolerance "about" gives."""
_PERIOD: Final = re.compile(r"\b(?:every|each|per|once\s+every|in\s+under)\s+$", re.I)
"""Before a spelled duration, words that make it a period ("every five minutes")."""
_OFFSET: Final = re.compile(
    rf"{UNIT}\s+(?:before|after|earlier|later|prior|ahead|ago|past)\b", re.IGNORECASE
)
"""A spelled duration between two times the claim writes: its direction is held by the
offset rule, its size is often rounded."""
_MORE: Final = re.compile(r"\b(?:more\s+than|over|above|at\s+least|exceed\w*)\s*$", re.I)
_LESS: Final = re.compile(r"\b(?:less\s+than|under|below|at\s+most|almost|nearly)\s*$", re.I)
_ABOUT: Final = re.compile(r"\b(?:about|around|roughly|approximately|some)\s*$", re.I)


def check_spelled(
    claim: ParsedClaim,
    views: Sequence[CallView],
    bind: bool = True,
    known: frozenset[str] = frozenset(),
) -> Finding | None:
    """Spelled quantities and counts of times are grounded as numbers in digits would be;
    a multiplier between two numbers of the claim is their ratio."""
    if " times" not in claim.text and not any(w.raw.lower() in SPELLED_WORDS for w in claim.words):
        return None
    multiplied = _check_multipliers(claim)
    if multiplied is not None:
        return multiplied
    spans = _spelled_spans(claim.text)
    if not spans:
        return None
    counted = _check_counts(claim, views, [(s, e, v) for s, e, v, times in spans if times])
    if counted is not None:
        return counted
    text = list(claim.text)
    digits: dict[int, str] = {}
    for start, end, value, times in spans:
        if times:
            continue
        written = f"{value:g}" + (" " if claim.text[end - 1] == "-" else "")
        text[start:end] = list(written.rjust(end - start))
        digits[end - len(written)] = claim.text[start:end]
    rewritten = parse_claim("".join(text))
    mine = tuple((q, at) for q, at in rewritten.quantities if at in digits)
    if not mine:
        return None
    found = check_numbers(evolve(rewritten, quantities=mine), views, bind, known)
    if found is None:
        return None
    quoted = next((digits[at] for q, at in mine if q.text == found.token), found.token or "")
    return Finding(found.reason, quoted.strip(" -"))


def _check_counts(
    claim: ParsedClaim, views: Sequence[CallView], spans: Sequence[tuple[int, int, float]]
) -> Finding | None:
    """A count of times ("retried five times", "logged 4 times") is a count the cited calls
    hold as it is (a cell, a matched count, a number of records), never a sum or difference
    of their numbers."""
    for start, end, value in spans:
        counts = {float(len(view.records)) for view in views if view.records}
        counts.update(v for view in views for v in view.values)
        if not any(abs(value - count) < 1e-9 for count in counts):
            return Finding(GroundingReason.UNGROUNDED_NUMBER, claim.text[start:end])
    return None


def _spelled_spans(text: str) -> list[tuple[int, int, float, bool]]:
    """(start, end, value, a count of times) of the numbers of ``text`` read here: spelled
    quantities, and counts of times spelled or in digits."""
    spans: list[tuple[int, int, float, bool]] = []
    for m in WITH_UNIT.finditer(text):
        before = text[max(0, m.start() - 20) : m.start()]
        bounded = _BOUNDED.search(before) and not _APPROXIMATE.search(before)
        if _COUNTING.search(before) or bounded or _PERIOD.search(before):
            continue
        if _OFFSET.match(text, m.end()):
            continue
        value = spelled_value(m.group(1))
        end = m.end() if text[m.end() - 1] == "-" else m.end(1)
        if value is not None:
            spans.append((m.start(), end, value, False))
    for m in _TIMES.finditer(text):
        written = m.group(1) or m.group(2)
        value = float(written) if written[0].isdigit() else spelled_value(written)
        before = text[max(0, m.start() - 20) : m.start()]
        if value is None or _COUNTING.search(before) or _BOUNDED.search(before):
            continue
        spans.append((m.start(), m.end(1) if m.group(1) else m.end(), value, True))
    return spans


def _check_multipliers(claim: ParsedClaim) -> Finding | None:
    """A multiplier between a number before it and a number just after it is their ratio."""
    for m in _MULTIPLIER.finditer(claim.text):
        written = m.group(1) or m.group(2) or m.group(3)
        factor = spelled_value(written) if not written[0].isdigit() else float(written)
        if factor is None:
            continue
        after = next((q for q, at in claim.quantities if m.end() <= at <= m.end() + _REACH), None)
        before = [(q, at) for q, at in claim.quantities if at < m.start()]
        if after is None or not before or _sentence_break(claim.text, before[-1][1], m.start()):
            continue
        ratio = _ratio(before[-1][0], after)
        if ratio is not None and not _agrees(ratio, factor, claim.text[: m.start()]):
            return Finding(GroundingReason.UNGROUNDED_NUMBER, m.group().strip())
    return None


def _sentence_break(text: str, start: int, end: int) -> bool:
    return re.search(r"[.;!?](?:\s|$)", text[start:end]) is not None


def _ratio(first: Quantity, second: Quantity) -> float | None:
    """first / second, units converted when both carry one of the same dimension."""
    if first.dimension != second.dimension:
        if first.dimension is not None and second.dimension is not None:
            return None
        a, b = first.value, second.value
    else:
        a, b = first.base[0], second.base[0]
    return a / b if b else None


def _agrees(ratio: float, factor: float, before: str) -> bool:
    if _MORE.search(before):
        return ratio >= factor * 0.98
    if _LESS.search(before):
        return factor * 0.8 <= ratio <= factor * 1.02
    tolerance = 0.2 if _ABOUT.search(before) else 0.1
    return abs(ratio - factor) <= tolerance * factor
