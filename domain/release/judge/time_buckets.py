"""A claim over every time bucket of a result: "in each of the three minutes", "every hour",
"all five minutes". It ranges over the rows of a cited SQL result that holds one instant per
row (the bucket): their number is the count it writes, and each bound or value the claim
states ("over 4,000 ms", "under 350") holds in every row, in one column. Once it holds, the
quantifier is shown by the rows and the claim goes on to the other rules without it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge.claims import ParsedClaim, parse_claim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.instants import evidence_instants
from factledger.domain.release.judge.quantities import Quantity, close, key_unit, text_quantities
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["over_buckets"]

_SPELLED = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_SPELLED |= {"nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30}
_BUCKETS = re.compile(
    r"\b(?:each|every|all)\s+(?:of\s+)?(?:the\s+|those\s+|these\s+)?"
    r"(?:(\d{1,2}|" + "|".join(_SPELLED) + r")\s+)?(second|minute|hour|day)s?\b",
    re.IGNORECASE,
)
_PERIOD = re.compile(r"every\s+\w+\s+(?:second|minute|hour|day)s\b", re.IGNORECASE)
""""every five minutes" is a period (a rate's span), not every bucket of a result."""


def over_buckets(
    claim: ParsedClaim, views: Sequence[CallView]
) -> tuple[Finding | None, ParsedClaim]:
    """The finding on a claim over every bucket (None when it holds) and the claim without
    its quantifier once shown; the claim as it is when it has none or cites no buckets."""
    found = _BUCKETS.search(claim.text)
    if found is None or _PERIOD.match(found.group()):
        return None, claim
    tables = [rows for view in views if (rows := _bucket_rows(view))]
    if not tables:
        return None, claim
    written = found.group(1)
    count = None if written is None else _SPELLED.get(written.lower()) or int(written)
    refused = Finding(GroundingReason.QUANTIFIER_UNSUPPORTED, found.group())
    bounds = [q for q, _ in claim.quantities if q.bound in {">=", "<=", "=", "about"}]
    for rows in tables:
        if (count is None or count == len(rows)) and all(_every_row(q, rows) for q in bounds):
            blank = " " * (found.end() - found.start())
            return None, parse_claim(
                claim.text[: found.start()] + blank + claim.text[found.end() :]
            )
    return refused, claim


def _bucket_rows(view: CallView) -> list[list[tuple[str, float]]]:
    """The numeric cells (column, value) of each row of a SQL result with an instant in
    every row, else empty."""
    data = view.content
    if not isinstance(data, dict):
        return []
    columns, rows = data.get("columns"), data.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list) or len(rows) < 2:
        return []
    cells: list[list[tuple[str, float]]] = []
    for row in rows:
        if not isinstance(row, list):
            return []
        if not any(isinstance(c, str) and evidence_instants(c) for c in row):
            return []
        cells.append(
            [(str(name), float(c)) for name, c in zip(columns, row, strict=False)
             if isinstance(c, int | float) and not isinstance(c, bool)]
        )  # fmt: skip
    return cells


def _every_row(quantity: Quantity, rows: list[list[tuple[str, float]]]) -> bool:
    """True when one column holds the quantity (its bound, or its value) in every row."""
    names = {name for row in rows for name, _ in row}
    return any(all(_holds(quantity, name, row) for row in rows) for name in names)


def _holds(quantity: Quantity, name: str, row: list[tuple[str, float]]) -> bool:
    for column, value in row:
        if column != name:
            continue
        unit = key_unit(column)
        cell = next(iter(text_quantities(f"{value:g} {unit}" if unit else f"{value:g}")), None)
        if cell is None or cell.dimension != quantity.dimension:
            return False
        claimed, found = quantity.base[0], cell.base[0]
        if quantity.bound == ">=":
            return found >= claimed
        if quantity.bound == "<=":
            return found <= claimed
        return close(quantity.value, value, quantity, quantity.value / claimed if claimed else 1)
    return False
