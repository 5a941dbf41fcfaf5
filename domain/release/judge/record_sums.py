"""A number of one record computed from other records: "92 order-history reads were
cancelled" when order-history's row holds 29 and 92 is the sum of two checkout-api rows.

A statement that names a value only one record of a call holds (a hyphenated name, a code)
speaks of that record. A number of it that no record holds is a computed one; when it can be
computed from the numbers of the other records but not from the named record's own (nor is a
total over every record), it is bound to the wrong thing: RECORD_MISMATCH.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from factledger.domain.release.judge.claims import ParsedClaim, present, spans
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.quantities import Quantity, derived
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_record_sums"]

_STATEMENT: Final = re.compile(r";|\.\s|\b(?:and|but|while|whereas|whilst)\b", re.IGNORECASE)


def _named_record(statement: str, claim: ParsedClaim, view: CallView) -> int | None:
    """The one record holding a name the statement writes (None when none or several)."""
    named: set[int] = set()
    for token in dict.fromkeys((*claim.identifiers, *claim.compounds)):
        value = token.lower()
        if not present(value, statement) or present(value, view.scope.text):
            continue
        holders = {i for i, text in enumerate(view.record_texts) if present(value, text)}
        if len(holders) == 1:
            named |= holders
    return next(iter(named)) if len(named) == 1 else None


def _totals(view: CallView) -> list[float]:
    """Column totals over every record, when the records' numbers line up."""
    numbers = [record.numbers for record in view.records]
    if not numbers or len({len(n) for n in numbers}) != 1:
        return []
    return [sum(column) for column in zip(*numbers, strict=True)]


def _misbound(quantity: Quantity, own: int, view: CallView) -> bool:
    records = view.records
    if any(quantity.value in record.numbers for record in records):
        return False
    mine = list(records[own].numbers)
    others = [n for i, r in enumerate(records) if i != own for n in r.numbers]
    if quantity.value in _totals(view) or derived(quantity, mine, mine):
        return False
    return derived(quantity, others, others)


def check_record_sums(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Each number of a statement about one record is computed from that record, if at
    all."""
    many = [view for view in views if len(view.records) >= 2 and view.record_kind == "rows"]
    if not many:
        return None
    lowered = claim.text.lower()
    for start, end in spans(claim.text, _STATEMENT):
        statement = lowered[start:end]
        plain = [q for q, at in claim.quantities if start <= at < end and q.dimension is None]
        if not plain:
            continue
        for view in many:
            own = _named_record(statement, claim, view)
            if own is None:
                continue
            for quantity in plain:
                if _misbound(quantity, own, view):
                    return Finding(GroundingReason.RECORD_MISMATCH, quantity.text)
    return None
