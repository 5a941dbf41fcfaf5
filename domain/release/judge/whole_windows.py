"""A whole period claimed of a query that read part of it: "over the whole window upload-api
served its requests without a 5xx" citing ``WHERE minute < '14:02'``.

A claim that says its figures hold for a whole period ("the whole day", "the entire
window", "all day", "throughout the incident") and writes no time of its own is broader than
a cited SQL call whose rows were bounded in time (a comparison of a column with an instant):
the rows outside the bound were never read. FILTER_MISMATCH, quoting the period's words.
A claim that writes a time is held to it by the time rules instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.instants import evidence_instants
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_whole_window"]

_PERIOD = r"(?:day|night|hour|morning|afternoon|evening|week|window|period|incident|outage|range)"
_WHOLE: Final = re.compile(
    rf"\b(?:(?:the|that|this)\s+(?:whole|entire|full)\s+{_PERIOD}|all\s+(?:day|night|morning"
    rf"|afternoon|evening|week)|throughout(?:\s+the\s+{_PERIOD})?|round\s+the\s+clock)\b",
    re.IGNORECASE,
)
_BOUNDS: Final = frozenset({"<", "<=", ">", ">=", "between"})


def _bounded_in_time(view: CallView) -> bool:
    """True when the call's SQL kept only rows on one side of an instant."""
    shape = view.scope.shape
    if shape is None:
        return False
    return any(
        predicate.op in _BOUNDS
        and not predicate.aggregate
        and any(evidence_instants(value) for value in predicate.values)
        for predicate in shape.predicates
    )


def check_whole_window(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """A whole period claimed, with no time written, of calls that each read part of it."""
    found = _WHOLE.search(claim.text)
    if found is None or claim.times or not views:
        return None
    if all(_bounded_in_time(view) for view in views):
        return Finding(GroundingReason.FILTER_MISMATCH, found.group())
    return None
