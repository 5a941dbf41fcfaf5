"""A quantifier over every row of a result: "both services had errors", "all three of the
longest waits were checkout-api's".

"Both" with a result of two rows, "all three"/"each of the three" with one of three, speak
of every row: what the claim says of them must hold for each. Two things are read:

* a label the claim gives them (``checkout-api``) that some rows of a text column hold and
  others do not: the rows without it are not what the claim says;
* a measure the claim names by a column's words ("had errors" of ``errors``) that is zero
  or empty in a row: that row does not have it.

The quantifier's count must be the number of rows: "all 42 failures came from v2" counts
failures inside one row, not the rows. The reverse, "only some of its 60 probes" answered
NOERROR, is refused when a row whose every label the claim names holds the 60: that category
has all of them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.json_types import JsonValue
from factledger.domain.release.judge.claims import ParsedClaim, present
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.words import content_stems

__all__ = ["check_record_quantifiers", "names_measure", "table_of"]

_COUNTS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_SPELLED = "|".join(_COUNTS)
_OVER_ROWS = re.compile(
    rf"\b(?:(both)|(?:all|each\s+of|every\s+one\s+of)\s+(?:the\s+)?({_SPELLED}|\d+)\b)",
    re.IGNORECASE,
)
_AGGREGATE_WORDS = frozenset(
    {"max", "min", "avg", "sum", "total", "count", "ms", "s", "pct", "kb", "mb", "gb", "byte"}
)
"""Words of a column name that say how it was computed, not what it measures."""


def table_of(view: CallView) -> tuple[list[str], list[list[JsonValue]]]:
    """The column names and rows of a SQL result (empty for other results)."""
    content = view.content
    if not isinstance(content, dict):
        return [], []
    columns, rows = content.get("columns"), content.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list):
        return [], []
    table = [row for row in rows if isinstance(row, list) and len(row) == len(columns)]
    return [str(c) for c in columns], table


def _count(found: re.Match[str]) -> int:
    if found[1]:
        return 2
    written = found[2].lower()
    return _COUNTS.get(written) or int(written)


def _label_missing(text: str, column: list[JsonValue]) -> bool:
    """The claim names some of a text column's values and a row holds another."""
    if not all(isinstance(cell, str) for cell in column):
        return False
    values = {str(cell) for cell in column}
    if len(values) < 2:
        return False
    named = {value for value in values if present(value, text)}
    return bool(named) and named != values


def _numeric(cell: JsonValue) -> bool:
    return cell is None or (isinstance(cell, int | float) and not isinstance(cell, bool))


def names_measure(stems: frozenset[str], name: str) -> bool:
    """True when ``stems`` (a claim's) hold the words of column ``name`` that say what it
    measures (``errors`` of ``sum_errors``)."""
    words = content_stems(name.replace("_", " ")) - _AGGREGATE_WORDS
    return bool(words) and words <= stems


def _measure_missing(
    stems: frozenset[str], columns: list[str], rows: list[list[JsonValue]]
) -> bool:
    """The claim names a measure of the columns and a row has none of it in any of them
    (``min_lag`` 0 with ``max_lag`` 900 still has lag)."""
    named = [
        index
        for index, name in enumerate(columns)
        if names_measure(stems, name) and all(_numeric(row[index]) for row in rows)
    ]
    if not named:
        return False
    return any(all(row[index] in (None, 0) for index in named) for row in rows)


_PART_OF = re.compile(
    r"\b(?:only\s+)?(?:some|part|a\s+few|not\s+all)\s+of\s+(?:the|its|their)\s+"
    r"(\d{1,3}(?:,\d{3})+|\d+)\b",
    re.IGNORECASE,
)
"""A part of a count the claim writes: "only some of its 60 probes"."""


def _whole_row(text: str, count: float, view: CallView) -> bool:
    """A row holds ``count`` and every label of it is named by the claim: the claim's
    category has all of them."""
    _, rows = table_of(view)
    for row in rows:
        labels = [cell for cell in row if isinstance(cell, str)]
        counts = [c for c in row if isinstance(c, int | float) and not isinstance(c, bool)]
        if labels and count in counts and all(present(label.lower(), text) for label in labels):
            return True
    return False


def _check_parts(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    text = claim.text.lower()
    for found in _PART_OF.finditer(text):
        count = float(found[1].replace(",", ""))
        if any(_whole_row(text, count, view) for view in views):
            return Finding(
                GroundingReason.QUANTIFIER_UNSUPPORTED, claim.text[found.start() : found.end()]
            )
    return None


_PART_BREAK = re.compile(r"[,;:]\s|\s[-\u2013\u2014]\s")


def _clause_of(claim: ParsedClaim, at: int) -> tuple[int, int]:
    """The part of the sentence the quantifier stands in, between commas, semicolons or
    dashes (not at "and", which joins the labels of a list): a label named in another part
    ("all three served traffic, search-replica-2 refusing 415") is said of that row alone."""
    text = claim.text
    start = max((m.end() for m in _PART_BREAK.finditer(text, 0, at)), default=0)
    after = _PART_BREAK.search(text, at)
    return start, after.start() if after else len(text)


def check_record_quantifiers(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """A quantifier that spans every row of a cited result holds for each row; a part of a
    count ("only some of its 60") is not the whole of a row the claim names."""
    parts = _check_parts(claim, views)
    if parts is not None:
        return parts
    text = claim.text.lower()
    for found in _OVER_ROWS.finditer(text):
        rows_meant = _count(found)
        for view in views:
            columns, rows = table_of(view)
            if len(rows) != rows_meant:
                continue
            start, end = _clause_of(claim, found.start())
            said = text[start:end]
            labels = (_label_missing(said, [row[i] for row in rows]) for i in range(len(columns)))
            if any(labels) or _measure_missing(claim.stems, columns, rows):
                token = claim.text[found.start() : found.end()]
                return Finding(GroundingReason.QUANTIFIER_UNSUPPORTED, token)
    return None
