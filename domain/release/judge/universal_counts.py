"""A spelled count after a universal quantifier: "all three nodes", "each of the four runs".

"All three nodes have ..." says there are three of them and that the claim holds of each:
the count is part of what must be grounded. It is grounded when a cited call has that many
records (SQL rows, log patterns), holds the number as a value, or when the claim itself
names that many things (each then held by the entity rules): "all three clients, mobile-app,
web-checkout and partner-sync". Units of time are left to the bucket rules ("each of the
three minutes from 09:20").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.quantities import Quantity, holds
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.spelled import NAMES, UNIT, spelled_value

__all__ = ["check_universal_counts"]

_UNIVERSAL: Final = re.compile(
    rf"\b(?:all|each\s+of\s+the|every\s+one\s+of\s+the)\s+({NAMES})\s+(?!of\b|{UNIT}\b)[a-z]",
    re.IGNORECASE,
)


def check_universal_counts(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Each spelled count after "all" (or "each of the") is a count the evidence shows."""
    lowered = claim.text.lower()
    if "all " not in lowered and "each of" not in lowered and "every one" not in lowered:
        return None
    for m in _UNIVERSAL.finditer(claim.text):
        value = spelled_value(m.group(1))
        if value is None or _shown(value, claim, views):
            continue
        return Finding(GroundingReason.QUANTIFIER_UNSUPPORTED, m.group(0)[:-1].strip())
    return None


def _shown(value: float, claim: ParsedClaim, views: Sequence[CallView]) -> bool:
    named = len({name.lower() for name in (*claim.identifiers, *claim.compounds)})
    if named >= value:
        return True
    count = Quantity(value, None, (value,))
    for view in views:
        if view.record_kind and len(view.records) == value:
            return True
        if any(holds(count, found) for found in view.quantities if found.dimension is None):
            return True
    return False
