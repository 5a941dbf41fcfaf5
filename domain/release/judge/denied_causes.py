"""A cause the claim denies ("the slow answers did not make quotes fail", "not because of
the deploy") is grounded by evidence that denies it too: a clause with causal wording that
denies an effect the claim denies ("so no quote fails because of it"), in an evidence text
(an excerpt, a message) that names half of the words of the claim's cause.

The causal rule asks two thirds of an affirmed cause's words and any clause that says why;
a denial states no cause, so what grounds it is the evidence's own denial of the effect,
bound to the cause by the text that holds both. An affirmed cause is left to the causal rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from factledger.domain.json_types import json_leaves
from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.text_rules import cause_of, has_stem
from factledger.domain.release.judge.words import (
    CAUSAL_CLAIM,
    CAUSAL_EVIDENCE,
    META,
    clauses,
    content_stems,
    word_marks,
)

__all__ = ["unless_denied_cause"]

_SCOPE: Final = frozenset({"scope"})


def unless_denied_cause(
    found: Finding | None, claim: ParsedClaim, views: Sequence[CallView]
) -> Finding | None:
    """``found`` (a finding of the causal rule), unless the claim denies the cause it states
    and a cited text denies it too."""
    if found is None or found.reason is not GroundingReason.CAUSAL_UNSUPPORTED:
        return found
    causal = CAUSAL_CLAIM.search(claim.text)
    if causal is None:
        return found
    span = range(causal.start(), causal.end())
    if not any(word.negated and word.start in span for word in claim.words):
        return found
    denied = frozenset(w.stem for w in claim.words if w.negated and w.start not in span[:1])
    cause = [s for s in content_stems(cause_of(claim, causal)) if s not in META]
    for view in views:
        for leaf in json_leaves(view.content, _SCOPE):
            if isinstance(leaf, str) and _denies(leaf, denied, cause):
                return None
    return found


def _denies(text: str, denied: frozenset[str], cause: Sequence[str]) -> bool:
    """True when a clause of ``text`` with causal wording denies a word of ``denied`` and
    ``text`` names half of the cause's words."""
    if not cause or not any(CAUSAL_EVIDENCE.search(clause) for clause in clauses(text)):
        return False
    stems = content_stems(text)
    if sum(has_stem(s, stems) for s in cause) * 2 < len(cause):
        return False
    return any(
        CAUSAL_EVIDENCE.search(clause)
        and any(marks[2] and has_stem(marks[1], denied) for marks in word_marks(clause))
        for clause in clauses(text)
    )
