"""A part of a result's rows said to be the only ones: "only one of the three pods was
killed at least 5 times", "just 2 of the 4 shards retried 12 times".

"Only K of the N" (also "just", "exactly"), citing a result of N rows, says that exactly K
of its rows hold what the claim says of them. What is read is a plain number the claim
writes after the quantifier in the same part of the sentence, with the bound before it
("at least 5", "more than 12", "under 3"): it is bound to the numeric columns that hold it
in some row, and the rows whose cell satisfies it must be K in number in one of them.
A claim whose number no column holds is left to the rules on numbers.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence

from factledger.domain.json_types import JsonValue
from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.record_quantifiers import table_of
from factledger.domain.release.judge.spelled import NAMES, spelled_value

__all__ = ["check_exclusive_counts"]

_COUNT = rf"(?:one|{NAMES}|\d+)"
_ONLY_OF = re.compile(
    rf"\b(?:only|just|exactly)\s+({_COUNT})\s+of\s+(?:the\s+|its\s+|their\s+)?({_COUNT})\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(
    rf"(?:\b(at\s+least|more\s+than|over|above|at\s+most|less\s+than|fewer\s+than|under|"
    rf"below)\s+)?(?<![\w.:-])({NAMES}|\d+(?:\.\d+)?)(?![\w.:%-])(?!\s*(?:ms|s|%|percent)\b)",
    re.IGNORECASE,
)
_PART_END = re.compile(r"[,;:]\s|\.(?:\s|$)|\s[-\u2013\u2014]\s")
_BOUNDS: dict[str, Callable[[float, float], bool]] = {
    "at least": operator.ge, "more than": operator.gt, "over": operator.gt,
    "above": operator.gt, "at most": operator.le, "less than": operator.lt,
    "fewer than": operator.lt, "under": operator.lt, "below": operator.lt,
}  # fmt: skip


def _value(written: str) -> float | None:
    low = written.lower()
    if low == "one":
        return 1.0
    return float(low) if low[0].isdigit() else spelled_value(low)


def _numbers(text: str) -> list[tuple[Callable[[float, float], bool], float]]:
    """The plain numbers of ``text`` with the test a cell must pass to hold each."""
    found: list[tuple[Callable[[float, float], bool], float]] = []
    for m in _NUMBER.finditer(text):
        value = _value(m[2])
        if value is not None:
            bound = " ".join(m[1].lower().split()) if m[1] else ""
            found.append((_BOUNDS.get(bound, operator.eq), value))
    return found


def _cells(rows: list[list[JsonValue]], index: int) -> list[float] | None:
    cells = [row[index] for row in rows]
    if not all(isinstance(c, int | float) and not isinstance(c, bool) for c in cells):
        return None
    return [float(c) for c in cells if isinstance(c, int | float)]


def _agrees(test: Callable[[float, float], bool], value: float, part: int, view: CallView) -> bool:
    """True unless a column holds ``value`` and in none of those columns do ``part`` rows
    pass ``test``."""
    columns, rows = table_of(view)
    bound = [
        cells
        for index in range(len(columns))
        if (cells := _cells(rows, index)) is not None and value in cells
    ]
    return not bound or any(sum(test(c, value) for c in cells) == part for cells in bound)


def check_exclusive_counts(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """ "Only K of the N" over a cited result of N rows holds for exactly K of them."""
    for found in _ONLY_OF.finditer(claim.text):
        part, whole = _value(found[1]), _value(found[2])
        if part is None or whole is None or part >= whole:
            continue
        after = _PART_END.search(claim.text, found.end())
        said = claim.text[found.end() : after.start() if after else len(claim.text)]
        tables = [view for view in views if len(table_of(view)[1]) == whole]
        for test, value in _numbers(said):
            if not all(_agrees(test, value, int(part), view) for view in tables):
                return Finding(GroundingReason.QUANTIFIER_UNSUPPORTED, found.group())
    return None
