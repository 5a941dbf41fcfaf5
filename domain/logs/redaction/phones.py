"""Telephone numbers in national formats: a trunk ``0`` and an area code, then groups
(``020 7946 0958``, ``06 12 34 56 78``, ``030/1234567``, ``(030) 1234567``) with 10 or 11
digits in all. International numbers (``+44 20 7946 0958``, ``+14155552671``) and the North
American ``(415) 555-2671`` / ``415-555-2671`` forms are caught by the context and shape
patterns; a number alone (``02079460958``) is not, as ids have that shape too."""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["NATIONAL_PHONES"]

_PHONE: Final = Placeholder.PHONE.value
_NATIONAL: Final = re.compile(
    r"(?<![\w.+\-/:])(?:\(0\d{1,4}\)[ ]?|0\d{1,4}[ .\-/])\d{2,8}(?:[ .\-]\d{2,8}){0,3}"
    r"(?![\w.\-/:]|,\d)"
)


def _national(match: re.Match[str]) -> str:
    found = match.group(0)
    digits = sum(1 for char in found if char.isdigit())
    return _PHONE if 10 <= digits <= 11 else found


NATIONAL_PHONES: Final = TextFamily(
    name="national telephone numbers",
    gate=lambda shape: (
        (shape.startswith("0") and shape.isdigit() and 2 <= len(shape) <= 5)
        or (shape.startswith("(0") and shape.endswith(")") and shape[1:-1].isdigit())
    ),
    probe=lambda lowered: "0" in lowered,
    apply=lambda text: _NATIONAL.sub(_national, text),
)
