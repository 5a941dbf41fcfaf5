"""A share, a multiplier or a proportion written beside the numbers it is computed from.

"95 of 110 emails are dead-lettered (86%)" states its own fraction: the percentage is that
fraction (or its complement, "14% got through"), not any ratio that happens to be found in
the evidence. "From 97 s to 1,419 s, more than 14 times longer" states its own two
measurements: the multiplier is their ratio. Either is held to the numbers the claim writes,
within the rounding and the bound ("about", "more than", "under") it is written with. A
word of proportion ("most", "only a few", "about half") beside the one fraction a claim
writes is held to that fraction (QUANTIFIER_UNSUPPORTED when it says otherwise).

A percentage the cited evidence holds as it is (a ``cpu_pct`` of 95) is grounded by itself
and left alone; a claim writing no fraction, or fewer than two other numbers beside a
multiplier, is left to the rules that look the number up in the evidence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.quantities import Quantity
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_stated_ratios"]

_NUMBER = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_FRACTION = re.compile(
    rf"(?<![\w.,]){_NUMBER}\s+(?:out\s+)?of\s+(?:the\s+|its\s+|their\s+|all\s+)?{_NUMBER}(?!\w|\.\d)",
    re.IGNORECASE,
)
_SPELLED = {"two": 2.0, "three": 3.0, "four": 4.0, "five": 5.0, "ten": 10.0}
_TIMES = re.compile(
    r"(?<![\w.,])(\d+(?:\.\d+)?|two|three|four|five|ten)\s*(?:x|times)\s+"
    r"(?:longer|higher|larger|bigger|greater|slower|faster|more|the)\b",
    re.IGNORECASE,
)


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _unit(quantity: Quantity) -> float:
    return 10.0**-quantity.decimals


def _agrees(written: float, bound: str, actual: float, unit: float, share: float) -> bool:
    """True when ``actual`` reads as ``written`` with its bound: rounded or cut to the
    written digits, "about" within ``share`` of it, "more than"/"less than" on its side."""
    if bound == ">=":
        return actual >= written - unit / 2
    if bound == "<=":
        return actual <= written + unit / 2
    if bound == "about":
        return abs(actual - written) <= max(2 * unit, share * written)
    return written - unit / 2 <= actual < written + unit


def _fractions(text: str) -> list[tuple[float, float]]:
    found: list[tuple[float, float]] = []
    for m in _FRACTION.finditer(text):
        part, whole = _number(m[1]), _number(m[2])
        if whole > 0 and part <= whole:
            found.append((part, whole))
    return found


def _clause_with(claim: ParsedClaim, position: int) -> tuple[int, int]:
    return next(((a, b) for a, b in claim.clauses if a <= position < b), (0, len(claim.text)))


def _share_text(claim: ParsedClaim, position: int) -> str:
    """The text a percentage at ``position`` is read with: its clause, and the clause before
    it when its own writes no other number ("failed 46 of 50, about 92%")."""
    start, end = _clause_with(claim, position)
    others = [at for _, at in claim.quantities if start <= at < end and at != position]
    if not others and start > 0:
        start = _clause_with(claim, start - 1)[0]
    return claim.text[start:end]


def _evidence_holds(quantity: Quantity, views: Sequence[CallView]) -> bool:
    return any(abs(q.value - quantity.value) < 1e-9 for view in views for q in view.quantities)


def _check_shares(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    for quantity, at in claim.quantities:
        if quantity.dimension != "percent" or _evidence_holds(quantity, views):
            continue
        fractions = _fractions(_share_text(claim, at))
        if not fractions:
            continue
        shares = [100 * p / w for p, w in fractions] + [100 * (w - p) / w for p, w in fractions]
        if not any(
            _agrees(quantity.value, quantity.bound, s, _unit(quantity), 0.05) for s in shares
        ):
            return Finding(GroundingReason.UNGROUNDED_NUMBER, quantity.text or str(quantity.value))
    return None


_PROPORTION = re.compile(
    r"(?<!\bthe\s)(?<!\bat\s)\b(most|the\s+majority|a\s+minority|(?:only\s+)?a\s+few|few|"
    r"(?:nearly|almost)\s+all|hardly\s+any|about\s+half|half)\b",
    re.IGNORECASE,
)
"""A word of proportion that a fraction the claim writes can contradict ("only a few ...:
106 of 148"); "the most" and "at most" are no proportion."""


def _proportion_holds(word: str, share: float) -> bool:
    word = " ".join(word.lower().split())
    if word in {"most", "the majority"}:
        return share > 0.5
    if word.endswith("all"):
        return share >= 0.8
    if "half" in word:
        return 0.4 <= share <= 0.6
    return share < 0.5  # few, a few, only a few, a minority, hardly any


def _check_proportions(claim: ParsedClaim) -> Finding | None:
    fractions = _fractions(claim.text)
    if len(fractions) != 1:
        return None
    part, whole = fractions[0]
    for m in _PROPORTION.finditer(claim.text):
        if not _proportion_holds(m[1], part / whole):
            return Finding(GroundingReason.QUANTIFIER_UNSUPPORTED, m.group())
    return None


def _bound_before(text: str, start: int) -> str:
    before = text[max(0, start - 24) : start].lower()
    if re.search(r"\b(?:more\s+than|over|at\s+least)\s*$", before):
        return ">="
    if re.search(r"\b(?:less\s+than|under|at\s+most)\s*$", before):
        return "<="
    if re.search(r"\b(?:about|around|roughly|nearly|almost|approximately|some)\s*$", before):
        return "about"
    return "="


def _check_multipliers(claim: ParsedClaim) -> Finding | None:
    for m in _TIMES.finditer(claim.text):
        written = m[1].lower()
        factor = _SPELLED.get(written) or float(written)
        others = [
            q for q, at in claim.quantities if not (m.start() <= at < m.end()) and q.base[0] > 0
        ]
        ratios = [
            max(a.base[0], b.base[0]) / min(a.base[0], b.base[0])
            for i, a in enumerate(others)
            for b in others[i + 1 :]
            if a.dimension == b.dimension
        ]
        if not ratios:
            continue
        decimals = len(written.split(".")[1]) if "." in written else 0
        bound = _bound_before(claim.text, m.start())
        if not any(_agrees(factor, bound, r, 10.0**-decimals, 0.08) for r in ratios):
            return Finding(GroundingReason.UNGROUNDED_NUMBER, m.group())
    return None


def check_stated_ratios(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """A percentage beside a fraction the claim writes is that fraction; a multiplier beside
    two numbers the claim writes is their ratio; a word of proportion agrees with the
    claim's one fraction."""
    return _check_shares(claim, views) or _check_multipliers(claim) or _check_proportions(claim)
