"""What one cited call holds, read once into the shape the rules need.

A call's evidence is its verified agent result plus its scope. From them: the words (with
their negation), the numbers (with units, from values, field names and text), the instants,
the records (SQL rows, log patterns and events) with the numbers and labels of each, and the
scope's facts (service, query terms, window, skipped parts, the SQL's predicates).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from datetime import datetime
from functools import cached_property, lru_cache

from attrs import evolve, frozen

from factledger.domain.json_types import JsonValue
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.release.judge import result_values
from factledger.domain.release.judge.flag_predicates import denied_flags
from factledger.domain.release.judge.instants import evidence_instants
from factledger.domain.release.judge.quantities import Quantity, text_quantities
from factledger.domain.release.judge.rate_fields import result_rates
from factledger.domain.release.judge.record_keys import key_word as _key_word
from factledger.domain.release.judge.record_keys import keys as _keys
from factledger.domain.release.judge.sql_predicates import QueryShape, query_shape
from factledger.domain.release.judge.status_codes import evidence_codes
from factledger.domain.release.judge.text_parts import (
    text_clauses,
    text_compounds,
    text_instants,
    text_stems,
)
from factledger.domain.release.judge.words import (
    AGGREGATE_SYNONYMS,
    DEPLETED,
    content_stems,
    word_marks,
)
from factledger.domain.release.judge.zero_cells import zero_cell_clauses
from factledger.domain.release.judge.zero_fields import zero_keys

__all__ = ["CallView", "ClaimEvidence", "Clause", "Record", "Scope", "clause_of", "view_of"]

_RECORD_KEYS = ("rows", "patterns", "evidence")
_MAX_VALUES = 60
_DEPLETED = frozenset(DEPLETED)


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
    keys: frozenset[str] = frozenset()
    """Its numbered grouping keys, as ``"<column word> <number>"`` (``shard 2``)."""


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


@lru_cache(maxsize=8192)
def clause_of(text: str, negated: bool = False) -> Clause:
    """One clause read (every word negated when ``negated``), remembered by text."""
    found = word_marks(text)
    stems = frozenset([m[1] for m in found])
    positive: frozenset[str]
    negative: frozenset[str]
    heads: frozenset[str]
    if negated:
        positive, negative, heads = frozenset(), stems, stems
    elif any(m[2] or m[5] for m in found):
        positive = frozenset([m[1] for m in found if not m[2]])
        negative = frozenset([m[1] for m in found if m[2] or m[5]])
        heads = frozenset([m[1] for m in found if m[4]])
    else:  # nothing negated (a head is a negated word): every word affirmed
        positive, negative, heads = stems, frozenset(), frozenset()
    keys = zero_keys(text)
    if not keys:
        return Clause(text.lower(), stems, positive, negative, heads)
    zeros = frozenset().union(*(content_stems(k.replace("_", " ")) for k in keys))
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


class CallView:
    """One cited call, read on demand (each part once, only when a rule asks for it)."""

    def __init__(self, content: JsonValue, scope: JsonValue) -> None:
        self._data: dict[str, JsonValue] = content if isinstance(content, dict) else {}
        self._content = content
        strings = result_values.strings(content)
        self._texts = list(dict.fromkeys(text for _, text in strings))
        self._prose = list(dict.fromkeys(text for key, text in strings if key != "sql"))
        self.scope = _scope(scope)
        """What the call searched."""
        self._read: dict[int, Clause] = {}

    @property
    def content(self) -> JsonValue:
        """The verified agent result."""
        return self._content

    @cached_property
    def text(self) -> str:
        """Every string and key of result and scope, lower-cased."""
        return (" ".join(self._texts) + " " + self.scope.text).lower()

    @cached_property
    def codes(self) -> frozenset[int]:
        """HTTP status codes the call holds as statuses (``status_codes``)."""
        return evidence_codes(self._content, self.text)

    @cached_property
    def compounds(self) -> frozenset[str]:
        """The hyphenated names of result and scope, lower-cased (``card-gateway``)."""
        return text_compounds((*self._texts, self.scope.text))

    @cached_property
    def stems(self) -> frozenset[str]:
        """Every folded word of the result (with fields of value zero)."""
        zeros = (content_stems(k.replace("_", " ")) for k in self._zero_keys)
        found = text_stems(self._texts).union(*zeros)
        aggregates = (names for key, names in AGGREGATE_SYNONYMS.items() if key in found)
        return found.union(*aggregates)

    @cached_property
    def _zero_keys(self) -> tuple[str, ...]:
        return tuple(zero_keys(" ".join(self._texts)))

    @cached_property
    def record_texts(self) -> tuple[str, ...]:
        """Each record's strings, lower-cased, in the order of ``records``."""
        return tuple(
            " ".join(t for _, t in result_values.strings(i)).lower() for i in self._record_items
        )

    @cached_property
    def _record_items(self) -> list[JsonValue]:
        items = self._data.get(self.record_kind, []) if self.record_kind else []
        return items if isinstance(items, list) else []

    @cached_property
    def depleted(self) -> bool:
        """True when a field of the result shows a resource used up (``idle=0``)."""
        return any(set(key.lower().split("_")) & _DEPLETED for key in self._zero_keys)

    @cached_property
    def quantities(self) -> tuple[Quantity, ...]:
        """Every number of the result with its unit."""
        shape = self.scope.shape
        limits = [
            quantity
            for predicate in (shape.predicates if shape else ())
            if not predicate.strings
            for value in predicate.values
            for quantity in text_quantities(value)
        ]
        content, data = self._content, self._data
        return (*result_values.numbers(content), *result_values.row_quantities(data), *limits)

    @cached_property
    def rates(self) -> tuple[tuple[float, float], ...]:
        """Values of rate fields (``limit_rps=50``) with the ms of the unit they are per."""
        return tuple(dict.fromkeys(result_rates(self._content, self._texts)))

    @cached_property
    def values(self) -> tuple[float, ...]:
        """Plain numbers to derive computed numbers from (bounded)."""
        plain = dict.fromkeys(q.value for q in self.quantities if q.dimension is None)
        return tuple(plain)[:_MAX_VALUES]

    @cached_property
    def instants(self) -> tuple[datetime, ...]:
        """Every instant of result and scope."""
        return text_instants(self._texts) + evidence_instants(self.scope.text)

    @cached_property
    def record_kind(self) -> str:
        """``rows``, ``patterns`` or empty (excerpts are prose, not records)."""
        kind = next((key for key in _RECORD_KEYS if isinstance(self._data.get(key), list)), "")
        return kind if kind in {"rows", "patterns"} else ""

    @cached_property
    def records(self) -> tuple[Record, ...]:
        """The rows or patterns, each with its numbers and labels."""
        kind = self.record_kind
        columns = self._data.get("columns")
        names = [str(c) for c in columns] if kind == "rows" and isinstance(columns, list) else None
        group_by = self.scope.shape.group_by if self.scope.shape else ()
        return tuple(
            evolve(
                _record(item, names),
                group=_group(item, names, group_by),
                keys=_keys(item, names, group_by),
            )
            for item in self._record_items
        )

    @cached_property
    def _key_pattern(self) -> re.Pattern[str] | None:
        words = {_key_word(name) for record in self.records for name in record.keys}
        if not words:
            return None
        alternatives = "|".join(sorted(re.escape(word) for word in words))
        return re.compile(rf"\b({alternatives})s?\s*#?\s*(\d+)\b", re.IGNORECASE)

    def named_keys(self, text: str) -> frozenset[str]:
        """The numbered grouping keys of this result a claim names ("shard 0")."""
        pattern = self._key_pattern
        if pattern is None:
            return frozenset()
        return frozenset(f"{m[1].lower()} {int(m[2])}" for m in pattern.finditer(text))

    @cached_property
    def clause_texts(self) -> tuple[str, ...]:
        """Clauses of the result's text (not its SQL: a query says nothing of why), lower-cased,
        and "no <field>" for each empty field and each flag the query keeps off
        (``flag_predicates``)."""
        found = [part.lower() for part in text_clauses(self._prose)]
        cells = zero_cell_clauses(self._data, self.scope.shape)
        return (*found, *self._denied_names, *(cell.lower() for cell in cells))

    @cached_property
    def _denied_names(self) -> tuple[str, ...]:
        """ "no <name>" of each empty field and flag kept off: every word of the name denied."""
        denied = (*result_values.nulls(self._data), *denied_flags(self.scope.shape))
        return tuple(f"no {name}" for name in denied)

    @cached_property
    def _clause_index(self) -> tuple[str, list[int]]:
        """The clauses joined by newlines, with where each starts."""
        starts: list[int] = []
        at = 0
        for text in self.clause_texts:
            starts.append(at)
            at += len(text) + 1
        return "\n".join(self.clause_texts), starts

    @cached_property
    def structure(self) -> dict[str, int]:
        """Counts that can make a quantifier true (patterns, levels, rows)."""
        return _structure(self._data, self.records, self.record_kind)

    def about(self, keys: frozenset[str]) -> tuple[Clause, ...]:
        """The clauses holding any of ``keys`` (word beginnings), read."""
        found: list[Clause] = []
        pattern = _any_of(keys)
        joined, starts = self._clause_index
        texts = self.clause_texts
        hit = pattern.search(joined)
        while hit is not None:
            index = bisect_right(starts, hit.start()) - 1
            if index not in self._read:
                whole = texts[index] in self._denied_names  # "no ntp reachable": both denied
                self._read[index] = clause_of(texts[index], whole)
            found.append(self._read[index])
            if index + 1 >= len(starts):
                break
            hit = pattern.search(joined, starts[index + 1])
        return tuple(found)


@lru_cache(maxsize=1024)
def _any_of(keys: frozenset[str]) -> re.Pattern[str]:
    """One pattern for any of ``keys`` (compiled once per claim)."""
    return re.compile("|".join(sorted(map(re.escape, keys))) or "(?!)")


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
        numbers = tuple(q.value for name, cell in cells for q in result_values.numbers(cell, name))
    else:
        numbers = tuple(q.value for q in result_values.numbers(item))
    labels = frozenset().union(
        *(
            content_stems(text)
            for key, text in result_values.strings(item)
            if key not in {"ts", "first_seen"}
        )
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
        " ".join(text for _, text in result_values.strings(scope)).lower(),
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
    """Read one cited call. A call read before with the same result and scope (a draft
    checked, then released; a mended draft citing the same calls) is the view read then,
    with what the rules already read of it: views hold nothing but what their call says."""
    try:
        text = json.dumps([content, scope], ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return CallView(content, scope)
    return _view_of_text(text)


@lru_cache(maxsize=128)
def _view_of_text(text: str) -> CallView:
    """The view of a call given as its JSON text (its own copy of the values: nothing the
    caller changes later reaches a remembered view)."""
    content, scope = json.loads(text)
    return CallView(content, scope)
