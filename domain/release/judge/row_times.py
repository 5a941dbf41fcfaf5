"""A number dated by the row that holds it: "by 14:35 the replica was back to 47 ms" when
the row with 47 ms is sampled at 14:35, not "by 14:32".

A claim with one time, and a clause of it with that time and a number that exactly one row
of a cited result holds, where that row has a time of its own (a ``sampled_at``, a
``minute``), speaks of that row: the time must be the row's ("at 14:35"), or on the side of
it the claim's bound says ("by 14:35" is the row's time or later, "since 14:30" the row's
time or earlier). Else TIME_MISMATCH.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from factledger.domain.json_types import JsonValue
from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.instants import ClaimTime, evidence_instants, matches, resolved
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.record_quantifiers import table_of

__all__ = ["check_row_times"]


def _row_instant(row: list[JsonValue]) -> datetime | None:
    found = [i for cell in row if isinstance(cell, str) for i in evidence_instants(cell)]
    return found[0] if len(found) == 1 else None


def _holding_row(value: float, view: CallView) -> datetime | None:
    """The time of the one row holding ``value`` among its numbers (None when several rows
    or none hold it, or the row has no single time)."""
    _, rows = table_of(view)
    holders = [
        row
        for row in rows
        if any(isinstance(c, int | float) and not isinstance(c, bool) and c == value for c in row)
    ]
    return _row_instant(holders[0]) if len(holders) == 1 else None


def _agrees(item: ClaimTime, instant: datetime) -> bool:
    if matches(item, instant):
        return True
    claimed = resolved(item, instant)
    if item.direction == "<=":
        return instant < claimed + timedelta(seconds=item.precision)
    if item.direction == ">=":
        return instant >= claimed
    return False


def check_row_times(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Each clause with one time and a number of one dated row holds that row's time (a
    number in another clause, "twice the 94 of the minute before", is not dated by it)."""
    if len(claim.times) != 1:
        return None  # several times may pair with several numbers respectively
    for start, end in claim.clauses:
        times = [t for t in claim.times if start <= t.start < end]
        numbers = [q for q, at in claim.quantities if start <= at < end]
        if len(times) != 1 or not numbers:
            continue
        for quantity in numbers:
            for view in views:
                instant = _holding_row(quantity.value, view)
                if instant is not None and not _agrees(times[0], instant):
                    return Finding(GroundingReason.TIME_MISMATCH, times[0].text)
    return None
