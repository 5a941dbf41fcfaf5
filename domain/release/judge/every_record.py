"""A quantified claim bound to the records of its cited call: "both", "all", "every", "each".

What a claim says of all the rows or patterns of a call must be in each of them: a name, a
word or a number of the claim that some records hold and others do not makes "both pushes
touched /v1/checkout" (one did) or "all errors are for region IE" (one pattern is for NL)
false. A claim that names such terms for every record enumerates them ("both /v2/cart and
/v2/search ...") and stands. A word of the call's scope (what was searched) labels every
record alike and is not counted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim, parse_claim, present, spans
from factledger.domain.release.judge.evidence import CallView, Record
from factledger.domain.release.judge.quantities import Quantity, holds
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.text_rules import has_stem
from factledger.domain.release.judge.words import content_stems

__all__ = ["check_every_record"]

_SPOKEN = r"(?:\d[\d,.]*|one|two|three|four|five|six|ten|fifteen|thirty|few|several|a|an)"
_EVERY = re.compile(
    rf"(?<!for )(?<!per )(?<!in )(?<!at )\b(all|every|each|both)\b"
    rf"(?!\s+(?:{_SPOKEN}\s+)?(?:seconds?|minutes?|hours?|days?|weeks?|times?|along)\b)",
    re.IGNORECASE,
)


_SEGMENT = re.compile(r";|:\s|\.\s|,\s|\bbut\b|\bwhile\b|\bwhereas\b|\bas\b")
_PHRASE = 6
_BETWEEN = re.compile(r"\bbetween\s+\S+\s+and\b", re.IGNORECASE)
_COUNT = re.compile(r"\s*(?:of\s+)?(?:the\s+|its\s+|their\s+)?(\d[\d,]*)\b")
"""Words after the quantifier read as what it ranges over ("all 42 HTTP 500 responses")."""


def check_every_record(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """A claim of "both", "all", "every" or "each" says nothing that only some of the records
    it ranges over hold (unless it names such a thing for each of them)."""
    for found in _EVERY.finditer(claim.text):
        start, end = next(
            ((a, b) for a, b in spans(claim.text, _SEGMENT) if a <= found.start() < b),
            (0, len(claim.text)),
        )
        rest = claim.text[found.end() : end]
        if found.group().lower() == "both" and re.search(r"\band\b", _BETWEEN.sub(" ", rest)):
            continue  # "both before and after 14:32": two things named, not records
        phrase = " ".join(rest.split()[:_PHRASE])
        segment = parse_claim(claim.text[start:end])
        subject = parse_claim(phrase)
        nouns = [w.stem for w in subject.words][:2]
        for view in views:
            if _ranges_over(nouns, view) and _some_only(segment, subject, phrase, view):
                return Finding(GroundingReason.QUANTIFIER_UNSUPPORTED, found.group())
    return None


def _ranges_over(nouns: list[str], view: CallView) -> bool:
    """True when the call has several records and the quantified words are of it (else the
    quantifier ranges over something else: "every concurrent request" of a runbook)."""
    if not view.record_kind or len(view.records) < 2:
        return False
    stems = view.stems | content_stems(view.scope.text)
    return any(has_stem(noun, stems) for noun in nouns)


def _some_only(segment: ParsedClaim, subject: ParsedClaim, phrase: str, view: CallView) -> bool:
    """True when the segment's terms that tell the ranged records apart leave one out. The
    records ranged over are those holding the numbers of the subject ("all 60 probes")."""
    ranged = set(range(len(view.records)))
    counted = _COUNT.match(phrase)
    quantities = [q for q, at in subject.quantities if counted and at == counted.start(1)]
    counts = {q.value for q in quantities}
    for quantity in quantities:
        holders = {i for i, r in enumerate(view.records) if _holds_number(quantity, r)}
        if holders:
            ranged &= holders
    if len(ranged) < 2:
        return False
    held: set[int] = set()
    telling = False
    for holders in _holders(segment, view, counts):
        inside = holders & ranged
        if 0 < len(inside) < len(ranged):
            telling = True
            held |= inside
    return telling and len(held) < len(ranged)


def _holders(claim: ParsedClaim, view: CallView, counts: set[float]) -> list[set[int]]:
    """For each identifier, word and number of the claim (but the subject's counts), the
    records that hold it."""
    texts = view.record_texts
    records = view.records
    scope = content_stems(view.scope.text)
    found: list[set[int]] = []
    for token in (*claim.identifiers, *claim.compounds):
        found.append({i for i, text in enumerate(texts) if present(token, text)})
    for word in claim.stems - scope:
        found.append({i for i, record in enumerate(records) if word in record.labels})
    for quantity, _ in claim.quantities:
        if quantity.value not in counts:
            found.append({i for i, r in enumerate(records) if _holds_number(quantity, r)})
    return found


def _holds_number(quantity: Quantity, record: Record) -> bool:
    return any(holds(quantity, Quantity(n, None, (n,))) for n in record.numbers)
