"""One record per statement: values a statement names together are in one record.

A cited call with several records (SQL rows, log patterns) holds facts that belong together
only within a record: the version, route and setting of one config push; the status and count
of one row. A statement of the claim (a sentence, or one side of "and", "but", "while") that
names one value of each kind (one path, one dotted name, one snake-case setting, one code, one
name, one number) describes one record, so some record must hold every one of them that
records hold. A statement naming two values of one kind (two versions, two routes) speaks of
several records and is not held to one. Values every record holds, or none does, distinguish
nothing and are left out; so are values the scope holds (what was searched).

This is what catches a claim about another row or pattern of the same call ("v-4 set the
checkout limit" when v-4 is the search push), which word coverage cannot see.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from factledger.domain.release.judge.claims import ParsedClaim, present, spans
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["STATEMENT", "check_records"]

STATEMENT: Final = re.compile(r";|\.\s|\b(?:and|but|while|whereas|whilst)\b", re.IGNORECASE)
"""What ends a statement of a claim: a sentence, a semicolon, "and", "but", "while"."""
_CODE: Final = re.compile(r"[A-Za-z]+[-_]?\d+|\d+[-_]?[A-Za-z]+")


def _kind(token: str) -> str:
    """The shape of a value: a path, a dotted name, a snake-case name, a code, a name."""
    if token.startswith("/"):
        return "path"
    if "." in token:
        return "dotted"
    if "_" in token:
        return "snake"
    return "code" if _CODE.fullmatch(token) else "name"


def _values(claim: ParsedClaim) -> list[tuple[int, str, str, str]]:
    """Each named value: where it stands, its folded form, its kind, and as the claim wrote
    it (a number by its value)."""
    lowered = claim.text.lower()
    found: list[tuple[int, str, str, str]] = []
    for token in dict.fromkeys((*claim.identifiers, *claim.compounds)):
        at = lowered.find(token.lower())
        if at >= 0:
            found.append((at, token.lower(), _kind(token), token))
    for quantity, position in claim.quantities:
        if quantity.dimension is None:
            found.append((position, repr(quantity.value), "number", quantity.text))
    return found


def _holders(value: str, kind: str, view: CallView) -> frozenset[int]:
    """The records of the call that hold the value."""
    if kind == "number":
        number = float(value)
        return frozenset(i for i, r in enumerate(view.records) if number in r.numbers)
    return frozenset(i for i, text in enumerate(view.record_texts) if present(value, text))


def _mismatch(values: list[tuple[str, str, str]], view: CallView) -> str | None:
    """The value (as written) that no record holds together with the others, or None."""
    count = len(view.records)
    held: list[tuple[str, frozenset[int]]] = []
    for value, kind, shown in values:
        if kind != "number" and present(value, view.scope.text):
            continue
        holders = _holders(value, kind, view)
        if 0 < len(holders) < count:
            held.append((shown, holders))
    if len(held) < 2:
        return None
    common = frozenset(range(count))
    for shown, holders in held:
        if not common & holders:
            return shown
        common &= holders
    return None


def check_records(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Every statement naming one value of each kind is held by one record of each call."""
    many = [view for view in views if len(view.records) >= 2]
    if not many:
        return None
    values = _values(claim)
    for start, end in spans(claim.text, STATEMENT):
        inside = [(value, kind, shown) for at, value, kind, shown in values if start <= at < end]
        kinds = [kind for _, kind, _ in inside]
        if len(set(kinds)) != len(kinds):
            continue  # two values of one kind: several records
        for view in many:
            shown = _mismatch(inside, view)
            if shown is not None:
                return Finding(GroundingReason.RECORD_MISMATCH, shown)
    return None
