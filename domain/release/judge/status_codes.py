"""HTTP status codes written as nouns: "answered with a 401", "only 4 401s", "the 503s".

Such a number names a response status, not a count nor a duration ("401s" is no 401
seconds here): it is grounded when a cited call holds that code *as a status*, written as it
is and never computed: a field or column named after a status (``"status": 401``,
``status_401``, ``http_503``) or a status written in the text (``HTTP 401``, ``status=503``).
A code the cited calls do not hold as a status is left to the other number rules, which
refuse it unless the evidence holds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Protocol

from factledger.domain.json_types import JsonValue
from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.quantities import Quantity

__all__ = ["evidence_codes", "is_code_noun", "status_code_grounded"]

_ARTICLE = re.compile(r"\b(?:a|an)\s+$", re.IGNORECASE)
_PLURAL = re.compile(r"\d{3}s\b")
_DETERMINED = re.compile(
    r"\b(?:the|with|first|last|each|every|this|that)\s+(?:[a-z][a-z-]*\s+)?$", re.IGNORECASE
)
"""Before a code named as one thing: "the 504", "with 503", "the first checkout 504"."""
_COUNTED = re.compile(
    r"\s+(?:of|out)\b|(?:\s+[a-z]+(?:ed|ing))?\s+(?!(?:was|is|has|does|as|its|this|thus)\b)"
    r"[a-z]+s\b",
    re.IGNORECASE,
)
"""After a number that counts: a plural noun ("the 504 lines", "with 504 failed requests"),
"of" or "out of"."""
_STATUS_KEY = re.compile(r"^(?:http_?)?(?:status|status_?code|code|response_?code)$", re.I)
_WRITTEN = re.compile(r"\b(?:https?|status(?:[_ ]?code)?|code)[\s_=:\"'/]*([1-5]\d\d)\b", re.I)


def is_code_noun(claim: ParsedClaim, quantity: Quantity, position: int) -> bool:
    """True when the claim writes the number as a status code used as a noun: a plural
    ("401s"), after an article ("a 401"), or named as one thing and counting nothing ("the
    first checkout 504 was logged", "failed with 503 because", never "the 504 lines")."""
    value = quantity.value
    if quantity.decimals or not 100 <= value <= 599 or quantity.dimension == "percent":
        return False
    if _PLURAL.match(claim.text, position) is not None:
        return True
    if quantity.dimension is not None:
        return False
    if _ARTICLE.search(claim.text[max(0, position - 4) : position]):
        return True
    before = claim.text[max(0, position - 28) : position]
    after = position + len(quantity.text)
    return bool(_DETERMINED.search(before)) and _COUNTED.match(claim.text, after) is None


def _keyed(value: JsonValue, key: str = "", top: bool = True) -> Iterator[int]:
    """Integers under a status-like key below the top level (the envelope's own ``status``
    is a word)."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _keyed(item, name, False)
    elif isinstance(value, list):
        for item in value:
            yield from _keyed(item, key, top)
    elif (
        isinstance(value, int) and not isinstance(value, bool) and not top and _code_key(key, value)
    ):
        yield value


def _code_key(key: str, value: int) -> bool:
    return _STATUS_KEY.match(key) is not None and 100 <= value <= 599


def evidence_codes(content: JsonValue, text: str) -> frozenset[int]:
    """The status codes a call holds as statuses (fields, and codes written in its text or
    column names)."""
    written = (int(m.group(1)) for m in _WRITTEN.finditer(text))
    return frozenset((*_keyed(content), *written))


class _Coded(Protocol):
    @property
    def codes(self) -> frozenset[int]: ...


def status_code_grounded(
    claim: ParsedClaim, quantity: Quantity, position: int, views: Sequence[_Coded]
) -> bool:
    """True when the number is a status code noun that a cited call holds as a status (the
    calls' codes are read only then)."""
    if not is_code_noun(claim, quantity, position):
        return False
    return any(int(quantity.value) in view.codes for view in views)
