"""Hyphenated words a claim lists together ("cart-ui, order-flow and promo-batch"): when one
of them is in the cited calls, the list names things, and each of its words is a name that
must be in them too (``text_rules.check_entities``)."""

from __future__ import annotations

import re

from factledger.domain.release.judge.claims import present

__all__ = ["listed_names"]

_SEPARATOR = r",\s+(?:and\s+|or\s+)?|\s+(?:and|or)\s+"
_ITEM = r"[A-Za-z][\w.]*-[\w.-]*[A-Za-z0-9]"
_NAME_LIST = re.compile(rf"{_ITEM}(?:(?:{_SEPARATOR}){_ITEM})+")
"""Hyphenated words listed together ("cart-ui, order-flow and promo-batch")."""


def listed_names(claim: str, text: str) -> frozenset[str]:
    """The hyphenated words of the claim listed beside one of the evidence's: names too."""
    found: set[str] = set()
    for m in _NAME_LIST.finditer(claim):
        items = [item.lower() for item in re.split(_SEPARATOR, m[0])]
        if any(present(item, text) for item in items):
            found.update(items)
    return frozenset(found)
