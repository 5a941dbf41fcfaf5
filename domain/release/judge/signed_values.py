"""A negative value told as a size and a direction: an ``offset_ms`` of -94612.3 is "about
94.6 seconds behind", a ``delta`` of -120 "120 below".

Evidence numbers are read without their sign (a minus is also a hyphen: ``node-7``), so a
negative cell of a SQL row or a negative field is otherwise invisible. Its magnitude grounds
a claim's number (units converted) when the claim says which way it goes (behind, ahead,
lagging, below, short of ...); which way is right is not checked here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from factledger.domain.json_types import JsonValue
from factledger.domain.release.judge import result_values
from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.quantities import Quantity, holds

__all__ = ["signed_magnitude"]

_DIRECTION = re.compile(
    r"\b(?:behind|ahead|lag(?:s|ged|ging)?|below|under|short\s+of|slow|fast|off\s+by|"
    r"negative|minus|deficit|drift(?:s|ed|ing)?|skew(?:ed)?|offset)\b",
    re.IGNORECASE,
)


def _negatives(value: JsonValue, key: str = "") -> Iterator[Quantity]:
    if isinstance(value, dict):
        for name, item in value.items():
            if name != "scope":
                yield from _negatives(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _negatives(item, key)
    elif isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
        yield from result_values.numbers(-value, key)


def _row_negatives(content: JsonValue) -> Iterator[Quantity]:
    data = content if isinstance(content, dict) else {}
    columns, rows = data.get("columns"), data.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list):
        return
    for row in rows:
        if isinstance(row, list):
            for name, cell in zip(columns, row, strict=False):
                if isinstance(cell, int | float) and not isinstance(cell, bool) and cell < 0:
                    yield from result_values.numbers(-cell, str(name))


def signed_magnitude(claim: ParsedClaim, quantity: Quantity, views: Sequence[CallView]) -> bool:
    """True when the claim gives a direction and the number is the size of a negative value
    of a cited call."""
    if _DIRECTION.search(claim.text) is None:
        return False
    for view in views:
        content = view.content
        found = (*_row_negatives(content), *_negatives(content))
        if any(holds(quantity, value) for value in found):
            return True
    return False
