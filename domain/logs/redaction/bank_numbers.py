"""IBANs, confirmed by their mod-97 checksum, written in one piece or in groups of four.

An IBAN is a country code, two check digits and 11 to 30 letters and digits; moving the first
four characters to the end and reading letters as 10 to 35 gives a number whose remainder by
97 is 1. Only numbers that pass the check are replaced, so codes of the same shape stay. One
written in lower case (``de89 3704 …``) must also have its country's length, since lower-case
words with digits (ids, hashes) are far more common than upper-case ones.
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
_SHAPE_HINT: Final = re.compile(r"[A-Z]{2}00[A-Z0-9]{11}|[a-z]{2}00[a-z0-9]{11}").search
_LOWER_COMPACT: Final = re.compile(r"(?<![A-Za-z0-9])[a-z]{2}\d{2}[a-z0-9]{11,30}(?![A-Za-z0-9])")
_LOWER_GROUPED: Final = re.compile(
    r"(?<![A-Za-z0-9])[a-z]{2}\d{2}(?:[ \-][a-z0-9]{4}){2,7}(?:[ \-][a-z0-9]{1,3})?(?![A-Za-z0-9])"
)
_ANY_GROUPED: Final = re.compile(_GROUPED.pattern + "|" + _LOWER_GROUPED.pattern)
"""Both cases in one pass (a match starts with two letters of one case, so none overlap)."""
_REGISTRY: Final = (
    "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28"
    " EE20 EG29 ES24 FI18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26"
    " IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 MC27 MD24 ME22 MK19 MR27 MT31 MU30 NL18"
    " NO15 PK24 PL28 PS29 PT25 QA29 RO24 RS22 SA24 SC31 SE24 SI19 SK24 SM27 ST25 SV28 TL23 TN24"
    " TR26 UA29 VA22 VG24 XK20"
)
_LENGTHS: Final = {entry[:2]: int(entry[2:]) for entry in _REGISTRY.split()}
"""The length of each country's IBAN (the registry of ISO 13616)."""


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


def _lower_valid(candidate: str) -> bool:
    upper = candidate.upper()
    return _LENGTHS.get(upper[:2]) == len(upper) and iban_valid(upper)


def _compact(match: re.Match[str]) -> str:
    found = match.group(0)
    compact = found.replace("-", "") if "-" in found else found
    valid = iban_valid(compact) if compact[0].isupper() else _lower_valid(compact)
    return _IBAN if valid else found


_DASHED: Final = (
    r"|(?<![A-Za-z0-9\-])(?:[A-Z]{2}\d{2}(?:-[A-Z0-9]{4}){2,7}(?:-[A-Z0-9]{1,3})?"
    r"|[a-z]{2}\d{2}(?:-[a-z0-9]{4}){2,7}(?:-[a-z0-9]{1,3})?)(?![A-Za-z0-9\-])"
)
"""An IBAN in one word with dashes between its groups (``DE89-3704-0044-0532-0130-00``)."""
_DASHED_HINT: Final = re.compile(r"[A-Za-z]{2}00-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}").search


def _grouped(match: re.Match[str]) -> str:
    compact = match.group(0).replace(" ", "").replace("-", "")
    valid = iban_valid(compact) if compact[0].isupper() else _lower_valid(compact)
    return _IBAN if valid else match.group(0)


IBAN: Final = WordFamily(
    name="IBAN in one piece",
    hint=lambda shape: (
        len(shape) >= 15
        and (_SHAPE_HINT(shape) is not None or ("-" in shape and _DASHED_HINT(shape) is not None))
    ),
    pattern=re.compile(_COMPACT.pattern + "|" + _LOWER_COMPACT.pattern + _DASHED),
    replace=_compact,
)
GROUPED_IBAN: Final = TextFamily(
    name="IBAN in groups",
    gate=lambda shape: (
        len(shape) == 4
        and shape[2:] == "00"
        and (shape[:2].isupper() or shape[:2].upper() in _LENGTHS)
    ),
    probe=lambda lowered: " " in lowered or "-" in lowered,
    apply=lambda text: _ANY_GROUPED.sub(_grouped, text),
)
