"""Values of one row: what a statement names from several columns is one row's.

A SQL result's row holds facts that belong together: who deployed which service at what
time; how many responses of which status came from which engine. A statement of a claim (a
sentence, or one side of "and", "but", "while") that names a cell value from each of several
columns (a text cell as a whole token, a number, a time of day) speaks of one row, so one row
must hold them all: "mbianchi deployed thumbnailer 4.18.0" of a table whose 4.18.0 row was
deployed by someone else names two rows as one (RECORD_MISMATCH).

Columns are the kinds here, so two numbers of one statement are still bound when they sit in
different columns (a count and a status), where ``record_binding``'s value shapes cannot tell
them apart. A column the statement names two values of speaks of several rows and binds
nothing; so does a value every row holds or one the query searched for (its scope).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Final

from attrs import frozen

from factledger.domain.json_types import JsonValue
from factledger.domain.release.judge.claims import ParsedClaim, present, spans
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.instants import evidence_instants
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.record_binding import STATEMENT
from factledger.domain.release.judge.record_quantifiers import table_of
from factledger.domain.release.judge.result_values import cell_number

__all__ = ["check_row_values"]

_BETWEEN: Final = re.compile(
    r"\b(?:between|from)\s+[^\s,;]+(?:\s+(?:am|pm|utc))?\s+(and|to)\b", re.IGNORECASE
)
"""A range's "and" ("between 10:15 and 10:52"): no statement ends there."""
_NAMING: Final = re.compile(r"[a-z]|\d\.\d+\.\d")
"""A cell that names (a letter, or a dotted version ``3.8.7``), not a plain number."""
_DAY: Final = 86400


@frozen
class _Named:
    """One value a statement names: as written, the columns holding it, the rows holding it."""

    shown: str
    columns: frozenset[int]
    rows: frozenset[int]


def _held(shown: str, cells: list[tuple[int, int]]) -> _Named:
    """A value written as ``shown`` held by the (row, column) ``cells``."""
    return _Named(shown, frozenset(c for _, c in cells), frozenset(r for r, _ in cells))


def _seconds(cell: JsonValue) -> int | None:
    """The time of day (seconds, UTC) of a cell holding one instant."""
    if not isinstance(cell, str):
        return None
    found = evidence_instants(cell)
    if len(found) != 1 or (found[0].hour, found[0].minute, found[0].second) == (0, 0, 0):
        return None
    moment: datetime = found[0]
    return moment.hour * 3600 + moment.minute * 60 + moment.second


@frozen
class _Cells:
    """A result's cells read once: the naming text cells (not one the query searched), the
    numeric cells by value and the time-of-day cells, each with its (row, column)."""

    texts: dict[str, list[tuple[int, int]]]
    numbers: dict[float, list[tuple[int, int]]]
    times: list[tuple[int, int, int]]


def _cells(rows: list[list[JsonValue]], searched: str) -> _Cells:
    texts: dict[str, list[tuple[int, int]]] = {}
    numbers: dict[float, list[tuple[int, int]]] = {}
    times: list[tuple[int, int, int]] = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if (value := cell_number(cell)) is not None:
                numbers.setdefault(value, []).append((r, c))
            if (seconds := _seconds(cell)) is not None:
                times.append((seconds, r, c))
            if not isinstance(cell, str) or len(cell) < 2 or len(cell) > 80:
                continue
            low = cell.strip().lower()
            if _NAMING.search(low) and not evidence_instants(low):
                texts.setdefault(low, []).append((r, c))
    named = {value: cells for value, cells in texts.items() if not present(value, searched)}
    return _Cells(named, numbers, times)


def _named(claim: ParsedClaim, start: int, end: int, cells: _Cells) -> list[_Named]:
    """The values of the statement from ``start`` to ``end`` that are cells of the result:
    text cells as whole tokens, plain numbers, times of day within a time cell's precision."""
    span = claim.text[start:end].lower()
    found = [_held(value, held) for value, held in cells.texts.items() if present(value, span)]
    for quantity, at in claim.quantities:
        numbers = cells.numbers.get(quantity.value) if quantity.dimension is None else None
        if numbers and start <= at < end:
            found.append(_held(quantity.text or str(quantity.value), numbers))
    for time in claim.times:
        if time.seconds is None or time.precision >= 3600 or not start <= time.start < end:
            continue
        at = time.seconds % _DAY
        held = [(r, c) for seconds, r, c in cells.times if at <= seconds < at + time.precision]
        if held:
            found.append(_held(time.text, held))
    return found


def _mismatch(named: list[_Named], count: int) -> str | None:
    """The value no row holds together with the others, or None."""
    telling = [n for n in named if len(n.rows) < count]
    bound = [
        n
        for n in telling
        if not any(other is not n and other.columns & n.columns for other in telling)
    ]
    if len(bound) < 2:
        return None
    common = frozenset(range(count))
    for value in bound:
        if not common & value.rows:
            return value.shown
        common &= value.rows
    return None


def _statements(text: str) -> tuple[tuple[int, int], ...]:
    """The statements of ``text``, a range's "and" kept inside its statement."""
    masked = _BETWEEN.sub(lambda m: m[0][: m.start(1) - m.start()] + "_" * len(m[1]), text)
    return spans(masked, STATEMENT)


def check_row_values(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Every statement naming cells of several columns of a result names one row of it."""
    statements: tuple[tuple[int, int], ...] | None = None
    for view in views:
        _, rows = table_of(view)
        if len(rows) < 2:
            continue
        statements = _statements(claim.text) if statements is None else statements
        cells = _cells(rows, view.scope.text)
        for start, end in statements:
            shown = _mismatch(_named(claim, start, end, cells), len(rows))
            if shown is not None:
                return Finding(GroundingReason.RECORD_MISMATCH, shown)
    return None
