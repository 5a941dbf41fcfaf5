"""A universal or dual quantifier shown by the records of a cited call rather than said in
its words: what the rows hold of each of them.

* Each row holds the claim's number (within its rounding and bound) in one column: "the
  three runs sent 412 reminders each", "each host averaged about 43 ms", "all three members
  had batches revoked, each at least 14 times" (a bound is the column's edge: one row holds
  it). When only some rows hold it, the claim must write how many ("three of the four runs
  ... 412 each").
* Every row naming one name of the claim also names another: "every NOT_YET_VALID rejection
  came from node-7" of rows (node-7, NOT_YET_VALID) and (node-7, EXPIRED), never of a row
  (node-5, NOT_YET_VALID). A word of the claim that is a whole text cell ("cancelled") is
  such a name too.
* "Both" of two names a single record names together with the claim's other names ("both
  green nodes, node-5 and node-6, stayed on egress-base-v9" of "node pool green (node-5,
  node-6) unchanged on egress-base-v9").
* "Only <label>" of the one row whose measure the claim names is not zero ("only
  checkout-api had errors" of rows where cart-api has 0 errors).

Anything else is left to the words of the evidence (``text_rules.check_quantifiers``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim, present
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.quantities import Quantity, holds
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.record_quantifiers import names_measure, table_of
from factledger.domain.release.judge.spelled import NAMES, spelled_value

__all__ = ["unless_shown"]

_UNIVERSAL = frozenset({"each", "every", "all", "both"})
_SPELLED_COUNT = re.compile(rf"\b({NAMES})\s+(?:of\s+the\s+\w+\s+)?[a-z]", re.IGNORECASE)


def unless_shown(
    found: Finding | None, claim: ParsedClaim, views: Sequence[CallView]
) -> Finding | None:
    """``found``, unless it refuses a universal, dual or exclusive quantifier the records
    show."""
    if found is None or found.reason is not GroundingReason.QUANTIFIER_UNSUPPORTED:
        return found
    word = (found.token or "").lower()
    if word == "only":
        return None if any(_only_row(claim, view) for view in views) else found
    if word not in _UNIVERSAL:
        return found
    shown = _every_row_holds(claim, views, word) or _names_nest(claim, views)
    if word == "both":
        shown = shown or _named_together(claim, views)
    return None if shown else found


def _counts(claim: ParsedClaim) -> set[float]:
    """The counts the claim writes (digits or spelled)."""
    found = {q.value for q, _ in claim.quantities if q.dimension is None}
    for m in _SPELLED_COUNT.finditer(claim.text):
        value = spelled_value(m.group(1))
        if value is not None:
            found.add(value)
    return found


def _claimed(claim: ParsedClaim) -> list[Quantity]:
    """The claim's numbers, spelled ones ("three copies") included."""
    found = [q for q, _ in claim.quantities]
    for m in _SPELLED_COUNT.finditer(claim.text):
        value = spelled_value(m.group(1))
        if value is not None:
            found.append(Quantity(value, None, (value,), m.group(1)))
    return found


def _every_row_holds(claim: ParsedClaim, views: Sequence[CallView], word: str) -> bool:
    counts = _counts(claim)
    for view in views:
        rows = [r.numbers for r in view.records] if view.record_kind == "rows" else []
        if len(rows) < 2 or len({len(r) for r in rows}) != 1:
            continue
        for quantity in _claimed(claim):
            for column in zip(*rows, strict=True):
                held = sum(holds(quantity, Quantity(n, None, (n,))) for n in column)
                if held < 2 or (word == "both" and held != 2) or not _tight(quantity, column):
                    continue
                if held == len(rows) or float(held) in counts:
                    return True
    return False


def _tight(quantity: Quantity, column: Sequence[float]) -> bool:
    """A bound ("each at least 14 times") is the column's own edge: some row holds it as it
    is (a bound far below every value is of another column)."""
    if quantity.bound not in {">=", "<="}:
        return True
    exact = Quantity(quantity.value, None, (quantity.value,), decimals=quantity.decimals)
    return any(holds(exact, Quantity(n, None, (n,))) for n in column)


def _names(claim: ParsedClaim) -> list[str]:
    return list(dict.fromkeys(n.lower() for n in (*claim.identifiers, *claim.compounds)))


def _cell_words(claim: ParsedClaim, view: CallView) -> list[str]:
    """The claim's words that are whole text cells of the result ("cancelled" of an
    ``outcome`` column): values that name rows as names do."""
    _, rows = table_of(view)
    cells = {c.lower() for row in rows for c in row if isinstance(c, str)}
    return [w.raw.lower() for w in claim.words if w.raw.lower() in cells and not w.negated]


def _names_nest(claim: ParsedClaim, views: Sequence[CallView]) -> bool:
    for view in views:
        texts = view.record_texts if view.record_kind == "rows" else ()
        names = list(dict.fromkeys([*_names(claim), *_cell_words(claim, view)]))
        if len(texts) < 2 or len(names) < 2:
            continue
        holding = {n: {i for i, t in enumerate(texts) if present(n, t)} for n in names}
        for first in names:
            rows = holding[first]
            if not rows or len(rows) == len(texts):
                continue
            if any(other != first and rows <= holding[other] for other in names):
                return True
    return False


def _named_together(claim: ParsedClaim, views: Sequence[CallView]) -> bool:
    names = _names(claim)
    if len(names) < 3:
        return False
    return any(all(present(n, text) for n in names) for v in views for text in v.record_texts)


_ONLY_LABEL = re.compile(r"\bonly\s+(?:the\s+)?(\S+)", re.IGNORECASE)


def _only_row(claim: ParsedClaim, view: CallView) -> bool:
    """True when "only <label>" names the one row of a result whose measure the claim names
    is not zero: "only checkout-api had errors" of (cart-api, 0) and (checkout-api, 2656)."""
    found = _ONLY_LABEL.search(claim.text)
    columns, rows = table_of(view)
    if found is None or len(rows) < 2:
        return False
    label = found[1].lower().rstrip(".,;:")
    named = [i for i, row in enumerate(rows) if any(str(c).lower() == label for c in row)]
    measures = [
        i for i, name in enumerate(columns)
        if names_measure(claim.stems, name)
        and all(isinstance(row[i], int | float) or row[i] is None for row in rows)
    ]  # fmt: skip
    if len(named) != 1 or not measures:
        return False
    return all(
        (row[i] not in (None, 0)) == (index == named[0]) for i in measures
        for index, row in enumerate(rows)
    )  # fmt: skip
