"""Polarity: each word of a claim found in the evidence is found there with its polarity.

A word the claim negates must be negated in the evidence clauses closest to the claim (or in
a clause that denies the claim's negated phrase as a whole, or by an empty field of that
name); a word it affirms must be affirmed there. Parts of names, units, words that only date
the claim and words of an attempt that failed carry no polarity.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import Clause
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.roles import dating
from factledger.domain.release.judge.text_rules import UNIT_WORD, has_stem
from factledger.domain.release.judge.words import META, Word

__all__ = ["check_polarity"]


def check_polarity(claim: ParsedClaim, prose: Sequence[Clause]) -> Finding | None:
    """Each word of the claim found in the evidence is found there with its polarity, in the
    evidence clauses closest to the claim (most words in common) that hold it.

    Parts of names (``ledger-db``, ``api.example.io``) and units carry no polarity; a word
    the claim denies is denied by an empty field of that name (``renewed_at: null``)."""
    names = _name_parts(claim)
    affirmed = frozenset(w.stem for w in claim.words if not w.negated)
    for word in claim.words:
        if word.raw.lower() in META or word.raw.lower() in names or UNIT_WORD.match(word.raw):
            continue
        if _attempted(claim, word) or dating(claim, word.start):
            continue  # "the renewal attempt timed out" affirms no renewal; "before the deploy"
        holding = [
            c
            for c in prose
            if has_stem(word.stem, c.stems) and (word.negated or not _NAME.match(c.text))
        ]
        if not holding:
            continue
        if word.negated and any(
            c.text.startswith("no ") and has_stem(word.stem, c.negative) for c in holding
        ):
            continue
        if word.negated and _denies_phrase(word, claim, holding):
            continue
        scores = [len(c.stems & claim.stems) for c in holding]
        best = max(scores)
        closest = [c for c, score in zip(holding, scores, strict=True) if score == best]
        if word.negated:
            denied = frozenset(w.stem for w in claim.words if w.negated)
            wrong = not any(has_stem(word.stem, c.negative) or c.negative & denied for c in closest)
        else:  # a name denied as a whole ("no ntp reachable") is denied of all its words
            wrong = all(
                has_stem(word.stem, c.heads)
                and not has_stem(word.stem, c.positive)
                and (c.heads != c.stems or c.stems <= affirmed)
                for c in closest
            )
        if wrong:
            return Finding(GroundingReason.POLARITY_MISMATCH, word.raw)
    return None


_NAME = re.compile(r"[\w-]+(?:\.[\w-]+)*(?:[._][\w-]+)$")
"""A clause that is one name (``clock_samples.ntp_reachable``, a column the query read): it
names a thing and affirms nothing of it, so it grounds no affirmed word."""
_ATTEMPTED = re.compile(
    r"(?:[\w-]+\s+)?(?:attempts?|tries|calls?|requests?)?\s*"
    r"(?:failed|fails?|failing|failures?|errors?|timed\s+out)\b",
    re.IGNORECASE,
)
_FAILING = re.compile(
    r"\b(?:failed|failing|unsuccessful|(?:fail|fails|failed|failing|unable)\s+to)\s+$",
    re.IGNORECASE,
)
"""Before an act: the act was attempted and failed ("the failing flushes", "failed to
flush")."""


def _attempted(claim: ParsedClaim, word: Word) -> bool:
    """True when the claim says the word was attempted and failed ("every renewal attempt
    timed out", "flush failures", "the failing flushes"): it affirms no renewal, so a denial
    in the evidence agrees with it."""
    if _FAILING.search(claim.text, max(0, word.start - 16), word.start):
        return True
    if word.negated:
        return False
    after = word.start + len(word.raw)
    return (
        _ATTEMPTED.match(claim.text, after + 1) is not None and claim.text[after : after + 1] == " "
    )


def _denies_phrase(word: Word, claim: ParsedClaim, holding: Sequence[Clause]) -> bool:
    """True when some clause of the evidence denies the claim's negated phrase as a whole
    (two of its words or more, this one among them): "without request coalescing"."""
    denied = frozenset(w.stem for w in claim.words if w.negated)
    return len(denied) >= 2 and any(
        has_stem(word.stem, c.negative) and len(c.negative & denied) >= 2 for c in holding
    )


def _name_parts(claim: ParsedClaim) -> frozenset[str]:
    """The lower-cased parts of the claim's hyphenated, dotted and snake-case names."""
    tokens = (*claim.compounds, *claim.identifiers)
    return frozenset(part for token in tokens for part in re.split(r"[-_./:]", token.lower()))
