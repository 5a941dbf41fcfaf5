"""The time of a first or a last: "the first 504 was logged at 10:05:13", "the last warning
came at 10:19:12".

A time written after a word of beginning (first, earliest, "started failing") or of end
(last, latest, final, "stopped logging") in its clause names an edge of what the cited
calls saw, not any instant in between: the first or last instant of a log pattern or of the
observed range, or the earliest or latest time in a result's rows. A time that is an
instant of the evidence but no such edge is TIME_MISMATCH.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from factledger.domain.json_types import JsonValue
from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.instants import evidence_instants, matches
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_edge_times"]

_FIRST = re.compile(
    r"\b(?:first|earliest|initial|(?:started|began|begun)\s+(?:to\s+\w+|\w+ing))\b", re.I
)
_LAST = re.compile(r"\b(?:last|latest|final|(?:stopped|ceased)\s+(?:to\s+\w+|\w+ing))\b", re.I)
"""Words of beginning and end: "first", "last", and an onset or end of doing something
("started moving", "stopped logging"); an event's own start ("the run started at 06:10") is
any instant."""


def _instants(value: JsonValue) -> list[datetime]:
    return list(evidence_instants(value)) if isinstance(value, str) else []


def _log_edges(content: dict[str, JsonValue]) -> tuple[list[datetime], list[datetime]]:
    firsts: list[datetime] = []
    lasts: list[datetime] = []
    observed = content.get("observed_range")
    if isinstance(observed, dict):
        firsts += _instants(observed.get("first"))
        lasts += _instants(observed.get("last"))
    patterns = content.get("patterns")
    for pattern in patterns if isinstance(patterns, list) else []:
        if isinstance(pattern, dict):
            firsts += _instants(pattern.get("first_seen"))
            lasts += _instants(pattern.get("last_seen"))
    return firsts, lasts


_FIRST_COLUMN = re.compile(r"first|min|earliest|start|since|began|opened", re.I)
_LAST_COLUMN = re.compile(r"last|max|latest|end|until|closed", re.I)
"""Column names of a row's own edge (``MIN(at) AS first_at`` of a grouped result)."""


def _row_edges(content: dict[str, JsonValue]) -> tuple[list[datetime], list[datetime]]:
    """The earliest and latest time of the rows, and each row's own first or last where a
    column says it holds one (a grouped result's ``first_at`` / ``last_at``)."""
    rows = content.get("rows")
    columns = content.get("columns")
    names = [str(c) for c in columns] if isinstance(columns, list) else []
    found: list[datetime] = []
    firsts: list[datetime] = []
    lasts: list[datetime] = []
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, list):
            continue
        for index, cell in enumerate(row):
            instants = _instants(cell)
            found += instants
            name = names[index] if index < len(names) else ""
            if _FIRST_COLUMN.search(name):
                firsts += instants
            elif _LAST_COLUMN.search(name):
                lasts += instants
    if len(found) >= 2:
        firsts.append(min(found))
        lasts.append(max(found))
    return firsts, lasts


def _edges(views: Sequence[CallView]) -> tuple[list[datetime], list[datetime]]:
    firsts: list[datetime] = []
    lasts: list[datetime] = []
    for view in views:
        content = view.content
        if not isinstance(content, dict):
            continue
        low, high = _log_edges(content) if "patterns" in content else _row_edges(content)
        firsts += low
        lasts += high
    return firsts, lasts


def check_edge_times(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Each time written after a word of beginning or end is such an edge of the evidence."""
    if not claim.times:
        return None
    edges: tuple[list[datetime], list[datetime]] | None = None
    for item in claim.times:
        clause_start = next((a for a, b in claim.clauses if a <= item.start < b), 0)
        before = claim.text[clause_start : item.start]
        first, last = _FIRST.search(before), _LAST.search(before)
        if (first is None) == (last is None):
            continue  # neither, or both ("from the first ... to the last")
        edges = _edges(views) if edges is None else edges
        wanted = edges[0] if first is not None else edges[1]
        if wanted and not any(matches(item, instant) for instant in wanted):
            return Finding(GroundingReason.TIME_MISMATCH, item.text)
    return None
