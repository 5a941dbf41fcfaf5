"""A number that log text writes only as an identifier (``pid 9052``, ``job #5512``,
``thread=14``) names a thing, it counts nothing: a claim that writes it as a count or a
measure ("waited 9052 times") is not grounded by it. Written after the same kind of word
("held by pid 9052") it is that identifier, and the other rules read it as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from factledger.domain.json_types import JsonValue, json_leaves
from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.quantities import text_quantities
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_identifier_numbers"]

_WORD = r"(?:pid|tid|uid|gid|process|thread|job|build|worker|ticket|issue|pr)"
_AFTER_WORD = re.compile(rf"\b{_WORD}\s*[=#:]?\s*#?(\d+)\b", re.IGNORECASE)
_BEFORE = re.compile(rf"\b{_WORD}\s*[=#:]?\s*#?$", re.IGNORECASE)


def check_identifier_numbers(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """A whole number of the claim that the cited calls hold only as an identifier is not
    written as one in the claim: ungrounded."""
    if not claim.quantities:
        return None
    ids = frozenset().union(*(_identifiers(view.text) for view in views))
    if not ids:
        return None
    texts = [text for view in views for text in _strings(view.content)]
    for quantity, position in claim.quantities:
        if quantity.dimension is not None or not quantity.value.is_integer():
            continue
        written = str(int(quantity.value))
        if written not in ids or _BEFORE.search(claim.text[max(0, position - 12) : position]):
            continue
        if not _elsewhere(quantity.value, texts, views):
            return Finding(GroundingReason.UNGROUNDED_NUMBER, quantity.text)
    return None


@lru_cache(maxsize=256)
def _identifiers(text: str) -> frozenset[str]:
    """The numbers ``text`` writes after an identifier's word (remembered by text: a call's
    text is read by every claim citing it)."""
    return frozenset(m.group(1) for m in _AFTER_WORD.finditer(text))


def _elsewhere(value: float, texts: list[str], views: Sequence[CallView]) -> bool:
    """True when the value is a number of the calls other than an identifier of text."""
    for view in views:
        if any(number == value for number in _numbers(view.content)):
            return True
    blanked = (_AFTER_WORD.sub(" ", text) for text in texts)
    return any(q.value == value for text in blanked for q in text_quantities(text))


def _strings(value: JsonValue) -> Iterator[str]:
    return (leaf for leaf in json_leaves(value) if isinstance(leaf, str))


def _numbers(value: JsonValue) -> Iterator[float]:
    return (
        leaf
        for leaf in json_leaves(value)
        if isinstance(leaf, int | float) and not isinstance(leaf, bool)
    )
