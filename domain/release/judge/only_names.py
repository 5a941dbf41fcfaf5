""" "Only <name>" where the cited evidence says the same of another name: "only cart-ui was
rate limited" of ``request from cart-ui rate limited`` and ``request from order-flow rate
limited``.

A clause of the evidence that holds the name and another word of the claim, and another
clause that reads the same with another hyphenated name in its place, show that the claim's
"only" is not so: QUANTIFIER_UNSUPPORTED.
A name the claim also lists beside it ("only cart-ui and order-flow") is no other name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim, present
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.words import content_stems

__all__ = ["check_only_names"]

_NAME = r"[a-z][\w.]*-[\w.-]*[a-z0-9]"
_ONLY_NAME = re.compile(rf"\b(?:only|solely)\s+(?:the\s+|on\s+|from\s+)?({_NAME})", re.IGNORECASE)
_ANY_NAME = re.compile(rf"(?<![\w.-]){_NAME}(?![\w-])")
_SLOT = "\x00"


def _shapes(name: str, clauses: Sequence[str], said: frozenset[str]) -> set[str]:
    """Each clause holding ``name`` and another word the claim says (``said``), with the
    name's place marked."""
    pattern = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])")
    return {
        pattern.sub(_SLOT, text)
        for text in clauses
        if name in text and pattern.search(text) and said & content_stems(pattern.sub(" ", text))
    }


def _others(name: str, clauses: Sequence[str], said: frozenset[str]) -> set[str]:
    """The other names that stand where ``name`` stands in a clause otherwise the same."""
    shapes = _shapes(name, clauses, said)
    if not shapes:
        return set()
    found: set[str] = set()
    for text in clauses:
        for m in _ANY_NAME.finditer(text):
            if m[0] != name and f"{text[: m.start()]}{_SLOT}{text[m.end() :]}" in shapes:
                found.add(m[0])
    return found


def check_only_names(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """ "Only <name>" is refused when the evidence says the same of another name."""
    if "only" not in claim.text.lower() and "solely" not in claim.text.lower():
        return None
    lowered = claim.text.lower()
    clauses = [text for view in views for text in view.clause_texts]
    for found in _ONLY_NAME.finditer(claim.text):
        name = found[1].lower().rstrip(".")
        said = claim.stems - content_stems(name.replace("-", " "))
        others = [o for o in _others(name, clauses, said) if not present(o, lowered)]
        if others:
            return Finding(GroundingReason.QUANTIFIER_UNSUPPORTED, found.group())
    return None
