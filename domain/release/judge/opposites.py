"""A claim that says the opposite of its evidence in another word: "lookups were hitting the
cache" of ``cache miss for product:18077``, "the limiter allowed them" of ``rejected``.

Operations language has pairs of contrary words (hit and miss, allow and reject, grant and
cancel, enable and disable, commit and revoke, rise and fall, online and offline...). A word
of a pair that the claim affirms, that none of its cited calls writes, while the cited
evidence about the same thing writes its contrary, reverses the evidence:
POLARITY_MISMATCH. A claim that writes both words ("hits instead of misses") or denies the
word ("did not hit the cache") is left to the polarity rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_opposites"]

_PAIRS: tuple[tuple[str, str], ...] = (
    ("hit|hits|hitting", "miss|misses|missed|missing"),
    (
        "allow|allows|allowed|allowing|admit|admits|admitted|accept|accepts|accepted|accepting",
        "reject|rejects|rejected|rejecting|deny|denies|denied|refuse|refuses|refused|block|"
        "blocks|blocked|throttled|dropped",
    ),
    ("grant|grants|granted", "cancel|cancels|cancelled|canceled|deny|denied|revoked"),
    ("enable|enables|enabled", "disable|disables|disabled"),
    ("commit|commits|committed", "revoke|revokes|revoked|abort|aborts|aborted|rolled back"),
    (
        "rise|rises|rose|risen|rising|grow|grows|grew|grown|growing|increase|increases|"
        "increased|increasing|climb|climbs|climbed",
        "fall|falls|fell|fallen|falling|drop|drops|dropped|dropping|shrink|shrinks|shrank|"
        "decrease|decreases|decreased|decreasing|decline|declined",
    ),
    ("online", "offline"),
    ("healthy", "unhealthy"),
    ("available", "unavailable"),
    ("reachable", "unreachable"),
    ("valid", "invalid"),
    ("warm|warmed", "cold"),
)
_NEGATION = re.compile(
    r"(?:\b(?:not|no|never|without|nor|neither|stopped|ceased)\b|n't)[^,.;:]{0,40}$", re.IGNORECASE
)


@lru_cache(maxsize=64)
def _forms(alternatives: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def _affirmed(text: str, forms: re.Pattern[str]) -> re.Match[str] | None:
    """The first form of ``forms`` in ``text`` no negation before it in its clause denies."""
    for found in forms.finditer(text):
        if _NEGATION.search(text[max(0, found.start() - 60) : found.start()]) is None:
            return found
    return None


def check_opposites(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """A word the claim affirms whose contrary, and not itself, is in the cited evidence about
    the same thing."""
    if not views:
        return None
    evidence: str | None = None
    about: str | None = None
    for one, other in _PAIRS:
        for said, contrary in ((one, other), (other, one)):
            found = _affirmed(claim.text, _forms(said))
            if found is None or _forms(contrary).search(claim.text):
                continue
            evidence = " ".join(v.text for v in views) if evidence is None else evidence
            if _forms(said).search(evidence) or not _forms(contrary).search(evidence):
                continue
            if about is None:
                about = " ".join(c.text for v in views for c in v.about(claim.keys))
            if _forms(contrary).search(about):
                return Finding(GroundingReason.POLARITY_MISMATCH, found.group())
    return None
