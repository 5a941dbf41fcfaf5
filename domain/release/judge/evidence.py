"""What one cited call holds, read once into the shape the rules need.

A call's evidence is its verified agent result plus its scope. From them: the words (with
their negation), the numbers (with units, from values, field names and text), the instants,
the records (SQL rows, log patterns and events) with the numbers and labels of each, and the
scope's facts (service, query terms, window, skipped parts, the SQL's predicates).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime

from attrs import evolve, frozen

from factledger.domain.json_types import JsonValue
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.release.judge.instants import evidence_instants
from factledger.domain.release.judge.quantities import Quantity, key_unit, text_quantities
from factledger.domain.release.judge.sql_predicates import QueryShape, query_shape
from factledger.domain.release.judge.words import clauses, content_stems, words

__all__ = ["CallView", "ClaimEvidence", "Clause", "Record", "Scope", "clause_of", "view_of"]

_SKIPPED_KEYS = frozenset(
    {"tool_call_id", "status", "evidence_status", "relevance_level", "fingerprint", "truncated"}
)
_RECORD_KEYS = ("rows", "patterns", "evidence")
_MAX_VALUES = 60
_ZERO = re.compile(r"([A-Za-z][A-Za-z_]*)\s*[=:]\s*0(?![\d.])")


@frozen
class ClaimEvidence:
    """One claim with the verified content of the calls it cites."""

    kind: AnalysisKind
    """Supporting evidence or a negative observation."""
    claim: str
    """The claim's text."""
    contents: tuple[JsonValue, ...]
    """The cited agent results (verified, from the canonical store)."""
    scopes: tuple[JsonValue, ...]
    """The cited results' scopes (what was searched)."""


@frozen
class Record:
    """One row, pattern or document excerpt of a result."""

    numbers: tuple[float, ...]
    labels: frozenset[str]
    """Folded words of its text cells."""
    group: frozenset[str] = frozenset()
    """Folded words of its cells in the query's grouping columns (a row's ``failed``)."""


@frozen
class Clause:
    """One clause of evidence text (or of a judged claim)."""

    text: str
    """Lower-cased."""
    stems: frozenset[str]
    positive: frozenset[str]
    negative: frozenset[str]
    """Stems negated in it, or fields of value zero (``idle=0``)."""
    heads: frozenset[str]
    """Stems a negation applies to first (``not gradually``)."""


def clause_of(text: str, negated: bool = False) -> Clause:
    """One clause read (every word negated when ``negated``: a negative observation)."""
    found = words(text)
    stems = frozenset(w.stem for w in found)
    positive = frozenset() if negated else frozenset(w.stem for w in found if not w.negated)
    negative = stems if negated else frozenset(w.stem for w in found if w.negated or w.failed)
    zeros = frozenset().union(*(content_stems(k.replace("_", " ")) for k in _ZERO.findall(text)))
    heads = stems if negated else frozenset(w.stem for w in found if w.head)
    return Clause(text.lower(), stems | zeros, positive, negative | zeros, heads | zeros)


@frozen
class Scope:
    """What a call searched."""

    service: str | None
    query: str
    start: datetime | None
    end: datetime | None
    skipped: bool
    """True when the backend names parts it did not read."""
    shape: QueryShape | None
    """The SQL's predicates and grouping (SQL calls)."""
    text: str
    """Every string of the scope, lower-cased."""


@frozen
class CallView:
    """One cited call, read."""

    text: str
    """Every string and key of result and scope, lower-cased."""
    positive: frozenset[str]
    """Stems found outside a negation."""
    negative: frozenset[str]
    """Stems found negated, or as a field whose value is zero (``idle=0``)."""
    quantities: tuple[Quantity, ...]
    values: tuple[float, ...]
    """Plain numbers to derive computed numbers from (bounded)."""
    instants: tuple[datetime, ...]
    records: tuple[Record, ...]
    record_kind: str
    """``rows``, ``patterns``, ``evidence`` or empty."""
    prose: tuple[Clause, ...]
    """Clauses of the result's text (for polarity, quantifier and causal wording)."""
    scope: Scope
    structure: dict[str, int]
    """Counts that can make a quantifier true (patterns, levels, rows, records)."""


def _strings(value: JsonValue, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for name, item in value.items():
            if name not in _SKIPPED_KEYS:
                yield name, name
                yield from _strings(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, key)
    elif isinstance(value, str):
        yield key, value


def _numbers(value: JsonValue, key: str = "") -> Iterator[Quantity]:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, dict):
        for name, item in value.items():
            if name not in _SKIPPED_KEYS and name not in {"scope", "rows"}:
                yield from _numbers(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item, key)
    elif isinstance(value, int | float):
        unit = key_unit(key)
        text = f"{value} {unit}" if unit else str(value)
        yield from text_quantities(text)
    elif isinstance(value, str):
        yield from text_quantities(value)


def _rows(data: dict[str, JsonValue]) -> Iterator[Quantity]:
    """The cells of SQL rows, each with the unit its column name carries."""
    columns = data.get("columns")
    rows = data.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list):
        return
    names = [str(c) for c in columns]
    for row in rows:
        if isinstance(row, list):
            for name, cell in zip(names, row, strict=False):
                yield from _numbers(cell, name)


def _group(item: JsonValue, columns: list[str] | None, group_by: tuple[str, ...]) -> frozenset[str]:
    if columns is None or not isinstance(item, list):
        return frozenset()
    cells = [
        cell
        for name, cell in zip(columns, item, strict=False)
        if name in group_by and isinstance(cell, str) and cell.isalpha()
    ]
    return frozenset().union(*(content_stems(cell) for cell in cells))


def _record(item: JsonValue, columns: list[str] | None = None) -> Record:
    if columns is not None and isinstance(item, list):
        cells = zip(columns, item, strict=False)
        numbers = tuple(q.value for name, cell in cells for q in _numbers(cell, name))
    else:
        numbers = tuple(q.value for q in _numbers(item))
    labels = frozenset().union(
        *(content_stems(text) for key, text in _strings(item) if key not in {"ts", "first_seen"})
    )
    return Record(numbers, labels)


def _scope(scope: JsonValue) -> Scope:
    data = scope if isinstance(scope, dict) else {}
    start = evidence_instants(str(data.get("start", "")))
    end = evidence_instants(str(data.get("end", "")))
    sql = data.get("sql")
    dialect = data.get("dialect")
    shape = (
        query_shape(sql, dialect if isinstance(dialect, str) else None)
        if isinstance(sql, str)
        else None
    )
    skipped = data.get("skipped")
    service = data.get("service")
    query = data.get("query")
    return Scope(
        service if isinstance(service, str) else None,
        query if isinstance(query, str) else "",
        start[0] if start else None,
        end[0] if end else None,
        bool(skipped) if isinstance(skipped, dict | list) else False,
        shape,
        " ".join(text for _, text in _strings(scope)).lower(),
    )


def _structure(
    content: dict[str, JsonValue], records: tuple[Record, ...], kind: str
) -> dict[str, int]:
    levels = content.get("level_counts")
    found = {"records": len(records)} if kind in {"rows", "patterns"} else {}
    if isinstance(content.get("pattern_count"), int):
        found["patterns"] = int(str(content["pattern_count"]))
    if isinstance(levels, dict):
        found["levels"] = len(levels)
    return found


def view_of(content: JsonValue, scope: JsonValue) -> CallView:
    """Read one cited call."""
    data = content if isinstance(content, dict) else {}
    texts = [text for _, text in _strings(content)]
    prose = tuple(clause_of(part) for text in texts for part in clauses(text))
    positive = frozenset().union(*(c.positive for c in prose))
    negative = frozenset().union(*(c.negative for c in prose))
    quantities = tuple(_numbers(content)) + tuple(_rows(data))
    kind = next((key for key in _RECORD_KEYS if isinstance(data.get(key), list)), "")
    items = data.get(kind, []) if kind else []
    columns = data.get("columns")
    names = [str(c) for c in columns] if kind == "rows" and isinstance(columns, list) else None
    scope_view = _scope(scope)
    group_by = scope_view.shape.group_by if scope_view.shape else ()
    records = (
        tuple(evolve(_record(item, names), group=_group(item, names, group_by)) for item in items)
        if isinstance(items, list)
        else ()
    )
    values = tuple(dict.fromkeys(q.value for q in quantities if q.dimension is None))
    return CallView(
        text=(" ".join(texts) + " " + scope_view.text).lower(),
        positive=positive,
        negative=negative,
        quantities=quantities,
        values=values[:_MAX_VALUES],
        instants=evidence_instants(" ".join(texts)) + _scope_instants(scope_view),
        records=records,
        record_kind=kind,
        prose=prose,
        scope=scope_view,
        structure=_structure(data, records, kind),
    )


def _scope_instants(scope: Scope) -> tuple[datetime, ...]:
    return evidence_instants(scope.text)
