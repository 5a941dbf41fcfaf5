"""Causes stated by a causative verb: "X made Y start", "X, which made Y fall behind",
"X is what drops Y".

These say that X caused Y as plainly as "because" does, so they are held as causal wording
is: the words naming the cause (before the verb) are in the evidence, two thirds of them,
and an analysis cites an evidence clause about the same thing that says why. The passive
("changes were made to edge-proxy", "made by dns-automation") and "make sure" state no cause.
Causal wording the causal rule already reads ("made quotes fail", "because") is left to it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.text_rules import has_stem
from factledger.domain.release.judge.words import CAUSAL_CLAIM, META, content_stems

__all__ = ["check_causatives"]

_CAUSATIVE: Final = re.compile(
    r"\b(?:(made|makes|make|making)\s+(?!(?:by|to|of|in|at|for|from|up|sure|it\s+to|"
    r"no|any|sense)\b)[\w'./-]+(?:\s+[\w'./-]+){0,3}\s+[a-z]+"
    r"|(?:is|was|are|were)\s+what\s+[a-z]+)\b",
    re.IGNORECASE,
)
_PASSIVE: Final = re.compile(
    r"\b(?:was|were|is|are|be|been|being|get|got|gets)\s+(?:\w+\s+)?$", re.IGNORECASE
)
_WHY: Final = re.compile(
    r"\b(?:because|caus\w*|due\s+to|owing\s+to|leads?\s+to|led\s+to|result(?:s|ed)?\s+in|"
    r"trigger\w*|responsible|therefore|hence|so\s+that|means?|ma(?:de|kes?)|explains?|"
    r"without|when|whenever|if|once)\b",
    re.IGNORECASE,
)
"""Wording of evidence that says why (a bare "from", as in "scaled from 12 to 4", does not)."""
_RELATIVE: Final = re.compile(r"[,;]?\s*\b(?:which|that|and\s+this|this)\s*$", re.IGNORECASE)


def check_causatives(
    claim: ParsedClaim, views: Sequence[CallView], stems: frozenset[str], conclusion: bool
) -> Finding | None:
    """A causative verb needs its cause in the evidence and, in an analysis, an evidence
    clause that says why."""
    lowered = claim.text.lower()
    if "mad" not in lowered and "mak" not in lowered and " what " not in lowered:
        return None
    if CAUSAL_CLAIM.search(claim.text):
        return None
    for found in _CAUSATIVE.finditer(claim.text):
        if found.group(1) and _PASSIVE.search(
            claim.text[max(0, found.start() - 20) : found.start()]
        ):
            continue
        refused = Finding(GroundingReason.CAUSAL_UNSUPPORTED, found.group())
        cause = _RELATIVE.sub("", claim.text[: found.start()])
        wanted = [s for s in content_stems(cause) if s not in META]
        if wanted and sum(has_stem(s, stems) for s in wanted) * 3 < 2 * len(wanted):
            return refused
        if not conclusion and not _says_why(claim, views):
            return refused
    return None


def _says_why(claim: ParsedClaim, views: Sequence[CallView]) -> bool:
    """True when a clause of the evidence about the claim (two words in common) says why."""
    for view in views:
        for clause in view.about(claim.keys):
            if len(clause.stems & claim.stems) >= 2 and _WHY.search(clause.text):
                return True
    return False
