"""A conclusion held to the draft's own findings, not only to the evidence at large.

A conclusion summarises its analyses. Two ways it stops following from them:

* its cause is not what the analyses found: "quotes fail because the currency-rates upstream
  is slow" when the analyses speak of rate tables and a rollout. At least half of the words
  naming the cause must be words of the analyses' claims (the evidence of every cited call
  holds many words no analysis found to matter); else CAUSAL_UNSUPPORTED.
* it affirms what a negative observation of the draft denies: "both quote-api and
  invoice-worker logged TaxEngineV2Error" beside "invoice-worker logged no
  TaxEngineV2Error". A clause of the conclusion that names the observation's subject and
  affirms a word it denies (or the word's synonym), with no negation of its own, is
  POLARITY_MISMATCH.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim, present
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.text_rules import cause_of, has_stem
from factledger.domain.release.judge.words import (
    CAUSAL_CLAIM,
    META,
    content_stems,
    synonyms,
    words,
)

__all__ = ["check_conclusion_cause", "check_denied_findings"]

_NEGATED = re.compile(r"\b(?:not|no|never|none|nothing|neither|nor|without)\b|n't\b", re.I)


def check_conclusion_cause(
    conclusion: ParsedClaim, analyses: Sequence[ParsedClaim]
) -> Finding | None:
    """Half of the words naming the conclusion's cause are words of the analyses."""
    found = CAUSAL_CLAIM.search(conclusion.text)
    if found is None or not analyses:
        return None
    stems = frozenset().union(*(claim.stems for claim in analyses))
    wanted = [s for s in content_stems(cause_of(conclusion, found)) if s not in META]
    if wanted and 2 * sum(has_stem(s, stems) for s in wanted) < len(wanted):
        return Finding(GroundingReason.CAUSAL_UNSUPPORTED, found.group())
    return None


def _subjects(negative: ParsedClaim, services: Sequence[str]) -> list[str]:
    """The names a negative observation is about: the services its calls searched and its
    hyphenated names and identifiers, written before its negation."""
    denial = _NEGATED.search(negative.text)
    head = negative.text[: denial.start() if denial else 0].lower()
    names = (*services, *negative.compounds, *negative.identifiers)
    return [name for name in dict.fromkeys(n.lower() for n in names) if present(name, head)]


def _denied(negative: ParsedClaim) -> frozenset[str]:
    stems = frozenset(word.stem for word in negative.words if word.negated)
    return stems.union(*(synonyms(s) for s in stems))


def check_denied_findings(
    conclusion: ParsedClaim, negatives: Sequence[tuple[ParsedClaim, Sequence[str]]]
) -> Finding | None:
    """No clause of the conclusion affirms, of a negative observation's subject, what the
    observation denies (each observation with the services its calls searched)."""
    for negative, services in negatives:
        subjects, denied = _subjects(negative, services), _denied(negative)
        if not subjects or not denied:
            continue
        for start, end in conclusion.clauses:
            clause = conclusion.text[start:end]
            if _NEGATED.search(clause):
                continue
            named = [s for s in subjects if present(s, clause.lower())]
            said = {word.stem for word in words(clause) if not word.negated}
            if named and said & denied:
                return Finding(GroundingReason.POLARITY_MISMATCH, named[0])
    return None
