"""National identity numbers by their shape, with their check where they have one.

In one word: US social security numbers (``078-05-1120``; never area 000, 666 or 9xx, group
00 or serial 0000), UK national insurance numbers (``AB123456C``, the letters the scheme
allows), Canadian social insurance numbers (``046-454-286``, Luhn), Spanish DNI and NIE (the
check letter), Italian fiscal codes and Indian PANs (their letter and digit pattern). Written
with spaces they are caught after their name (``SSN 078 05 1120``, ``NI AB 12 34 56 C``).
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily, WordFamily
from factledger.domain.logs.redaction.patterns import luhn_valid_any
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["NAMED_NATIONAL_IDS", "NATIONAL_IDS"]

_ID: Final = Placeholder.NATIONAL_ID.value
_DNI_LETTERS: Final = "TRWAGMYFPDXBNJZSQVHLCKE"
_NINO_BAD_PREFIXES: Final = frozenset({"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"})
_WORD: Final = re.compile(
    r"(?<![\w\-])(?:"
    r"(?P<ssn>(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4})"
    r"|(?P<sin>\d{3}-\d{3}-\d{3})"
    r"|(?P<nino>[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D])"
    r"|(?P<dni>[XYZ]?\d{7,8}[A-Z])"
    r"|(?P<cf>[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z])"
    r"|(?P<pan>[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z])"
    r")(?![\w\-])"
)
_HINT: Final = re.compile(
    r"000-00-0000|000-000-000|[A-Z]{2}000000[A-Z]|00000000[A-Z]|[XYZ]0000000[A-Z]"
    r"|[A-Z]{6}00[A-Z]00[A-Z]000[A-Z]|[A-Z]{5}0000[A-Z]"
).search


def _dni_valid(found: str) -> bool:
    digits = found[:-1]
    if digits[0] in "XYZ":
        digits = str("XYZ".index(digits[0])) + digits[1:]
    if len(digits) != 8:
        return False
    return _DNI_LETTERS[int(digits) % 23] == found[-1]


def _word(match: re.Match[str]) -> str:
    found = match.group(0)
    kind = match.lastgroup
    if kind == "sin" and not luhn_valid_any(found.replace("-", "")):
        return found
    if kind == "nino" and found[:2] in _NINO_BAD_PREFIXES:
        return found
    if kind == "dni" and not _dni_valid(found):
        return found
    return _ID


NATIONAL_IDS: Final = WordFamily(
    name="national identity numbers",
    hint=lambda shape: _HINT(shape) is not None,
    pattern=_WORD,
    replace=_word,
)

_NAMED: Final = re.compile(
    r"(?i)\b(ssn|social security(?: number| no\.?)?|national insurance(?: number| no\.?)?|nino"
    r"|ni(?: number| no\.?)|sin|tax id|tin)(?!\w)(\s*[:=#]?\s*)"
    r"(\d{3}[ .]\d{2}[ .]\d{4}|[A-Za-z]{2}(?: ?\d{2}){3} ?[A-Da-d]|\d{3}[ .]\d{3}[ .]\d{3})"
    r"(?![\w])"
)
_NAME_WORDS: Final = frozenset({"ssn", "nino", "ni", "sin", "security", "insurance", "tin", "tax"})


_NAME_HINTS: Final = ("ssn", "social", "insurance", "nino", "ni ", "sin", "tax", "tin")


def _named(match: re.Match[str]) -> str:
    return match.group(1) + match.group(2) + _ID


NAMED_NATIONAL_IDS: Final = TextFamily(
    name="national identity numbers after their name",
    gate=lambda shape: shape.lower().strip(":=#\"'") in _NAME_WORDS,
    probe=lambda lowered: any(word in lowered for word in _NAME_HINTS),
    apply=lambda text: _NAMED.sub(_named, text),
)
