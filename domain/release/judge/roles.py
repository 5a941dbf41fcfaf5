"""Rules on the role a word plays in a claim rather than on the word alone.

* Partial quantifiers ("only some", "only a few", "half of", "not all") say the evidence is
  split; a result of one pattern, one level or one record is not split. "Several", "many"
  say there is more than one: a result of exactly one record does not.
* A word that only dates the claim ("before the incident", "until the next deploy") names
  the episode: it is not a trouble the cited call must show, and carries no polarity.
* A hyphenated name in the place of a source ("X reported", "X's logs", "from X", "logged by
  X") or before a noun that names a thing ("the X consumer group", "the X service") names
  something: it must be in the cited calls, whether or not a call of the draft knows it.
* A cause cannot come after its effect: when the claim dates both, the cause's time is not
  later than the effect's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim, present
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_cause_order", "check_partial", "check_plural", "check_sources", "dating"]

_PARTIAL = re.compile(
    r"\b(only\s+(?:some|a\s+few|a\s+handful|part|a\s+minority)|not\s+all|half\s+of|"
    r"(?:a\s+)?few\s+of|a\s+minority\s+of)\b",
    re.IGNORECASE,
)
_PLURAL = re.compile(r"\b(several|multiple|many|numerous)\b", re.IGNORECASE)
_DATING = re.compile(
    r"\b(?:before|after|during|since|until|till|prior\s+to|throughout|ahead\s+of)\s+"
    r"(?:the|this|that|these|those)\s+(?:(?:next|last|first|previous|same)\s+)?"
    r"(?:[a-z][\w-]*\s+)?$",
    re.IGNORECASE,
)
_NAME = r"([a-z][a-z0-9]*(?:-[a-z0-9]+)+)"
_SOURCE = re.compile(
    rf"\b(?:from|by)\s+(?:the\s+)?{_NAME}(?![\w-])"
    rf"|(?<![\w-]){_NAME}\s+(?:consumer\s+)?(?:group|service|job|pod|host|cluster|topic|queue|"
    r"database|container|node|bucket|deployment|worker|daemon|cronjob)s?\b"
    rf"|(?<![\w-]){_NAME}(?:'s\b|\s+(?:reported|reports|logged|logs|says|said|returned|"
    r"answered|raised|emitted|threw|wrote|showed|shows|printed)\b)",
)
_HALF_DAY = 43_200
"""Further apart than this, two times of day may be on different dates: no order is read."""
_FORWARD = re.compile(r"because|due|owing|caused\s+by|result\w*\s+from|driven\s+by", re.I)


def check_partial(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """A partial quantifier over a result that is not split (one pattern, level, record)."""
    found = _PARTIAL.search(claim.text)
    if found is None:
        return None
    shapes = [view.structure for view in views]
    whole = any(
        s.get("patterns") == 1 or s.get("levels") == 1 or s.get("records") == 1 for s in shapes
    )
    return Finding(GroundingReason.QUANTIFIER_UNSUPPORTED, found.group()) if whole else None


def check_plural(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """ "Several", "multiple", "many" over a result of exactly one record."""
    found = _PLURAL.search(claim.text)
    if found is None:
        return None
    single = [view.structure.get("records") == 1 for view in views]
    return Finding(GroundingReason.QUANTIFIER_UNSUPPORTED, found.group()) if all(single) else None


def dating(claim: ParsedClaim, start: int) -> bool:
    """True when the word at ``start`` only dates the claim ("before the *incident*")."""
    return _DATING.search(claim.text[max(0, start - 40) : start]) is not None


def check_sources(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Every hyphenated name in the place of a source is in the cited calls."""
    text = " ".join(view.text for view in views)
    for m in _SOURCE.finditer(claim.text):
        name = next(group for group in m.groups() if group)
        if not present(name, text):
            return Finding(GroundingReason.UNGROUNDED_ENTITY, name)
    return None


def check_cause_order(claim: ParsedClaim, found: re.Match[str]) -> Finding | None:
    """The cause's time (within the claim) is not later than the effect's."""
    start = next((a for a, b in claim.clauses if a <= found.start() < b), 0)
    if _FORWARD.match(found.group()):
        cause = (found.end(), len(claim.text))
    else:
        cause = (start if claim.text[start : found.start()].strip() else 0, found.start())
    dated = [t for t in claim.times if t.seconds is not None]
    causes = [t.seconds or 0 for t in dated if cause[0] <= t.start < cause[1]]
    effects = [t.seconds or 0 for t in dated if not cause[0] <= t.start < cause[1]]
    if causes and effects and max(effects) < min(causes) <= max(effects) + _HALF_DAY:
        return Finding(GroundingReason.CAUSAL_UNSUPPORTED, found.group())
    return None
