"""IBANs, confirmed by their mod-97 checksum, written in one piece or in groups of four.

An IBAN is a country code, two check digits and 11 to 30 letters and digits; moving the first
four characters to the end and reading letters as 10 to 35 gives a number whose remainder by
97 is 1. Only numbers that pass the check are replaced, so codes of the same shape stay.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily, WordFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["GROUPED_IBAN", "IBAN", "iban_valid"]

_IBAN: Final = Placeholder.IBAN.value
_COMPACT: Final = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}[A-Z0-9]{11,30}(?![A-Za-z0-9])")
_GROUPED: Final = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ \-][A-Z0-9]{4}){2,7}(?:[ \-][A-Z0-9]{1,3})?(?![A-Za-z0-9])"
)
_SHAPE_HINT: Final = re.compile(r"[A-Z]{2}00[A-Z0-9]{11}").search


def iban_valid(candidate: str) -> bool:
    """True when a compact IBAN candidate passes the mod-97 check."""
    if not 15 <= len(candidate) <= 34:
        return False
    moved = candidate[4:] + candidate[:4]
    remainder = 0
    for char in moved:
        value = ord(char) - 48 if char.isdigit() else ord(char) - 55
        remainder = (remainder * (100 if value > 9 else 10) + value) % 97
    return remainder == 1


def _compact(match: re.Match[str]) -> str:
    return _IBAN if iban_valid(match.group(0)) else match.group(0)


def _grouped(match: re.Match[str]) -> str:
    compact = match.group(0).replace(" ", "").replace("-", "")
    return _IBAN if iban_valid(compact) else match.group(0)


IBAN: Final = WordFamily(
    name="IBAN in one piece",
    hint=lambda shape: len(shape) >= 15 and _SHAPE_HINT(shape) is not None,
    pattern=_COMPACT,
    replace=_compact,
)
GROUPED_IBAN: Final = TextFamily(
    name="IBAN in groups",
    gate=lambda shape: len(shape) == 4 and shape[:2].isupper() and shape[2:] == "00",
    probe=lambda lowered: " " in lowered or "-" in lowered,
    apply=lambda text: _GROUPED.sub(_grouped, text),
)
