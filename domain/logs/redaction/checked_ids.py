"""National identity numbers carrying their own check, read near a word that names them:

* **French NIR** (numéro de sécurité sociale, INSEE): 15 digits (Corsica's ``2A``/``2B`` in
  the department), in one piece or grouped ``1 85 05 78 006 084 91``, whose last two digits
  are ``97 - n mod 97``; near ``nir``, ``insee``, ``sécu``, ``sécurité sociale``, ``nss``;
* **Norwegian fødselsnummer** (and D-number): 11 digits, ``DDMMYY`` and five more, with both
  mod-11 check digits; near ``fødselsnummer``, ``fnr``, ``personnummer``, ``d-nummer``;
* **Turkish TC kimlik**: 11 digits not starting with 0, the tenth from the odd and even
  positions, the eleventh the sum of the first ten mod 10; near ``kimlik``, ``tckn``,
  ``tc no``;
* **Israeli teudat zehut**: 9 digits passing the 1-2 weighted check (Luhn); near ``zehut``,
  ``teudat``, ``israeli id``, ``ת.ז``, ``תעודת זהות``.

A number of these lengths is often a count, an order or a row id: only one with both its
name within a few words before it and a valid check goes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.patterns import luhn_valid_any
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["CHECKED_IDS", "fnr_valid", "nir_valid", "tc_kimlik_valid"]

_ID: Final = Placeholder.NATIONAL_ID.value
_WINDOW: Final = 40


def nir_valid(value: str) -> bool:
    """True for a French NIR whose key is ``97 - n mod 97``."""
    digits = value.replace(" ", "").replace(".", "").upper()
    if len(digits) != 15 or digits[0] not in "12378":
        return False
    body = digits[:13].replace("2A", "19").replace("2B", "18")
    if not body.isdigit() or not digits[13:].isdigit():
        return False
    return 97 - int(body) % 97 == int(digits[13:])


def _mod11(digits: list[int], weights: tuple[int, ...]) -> int:
    check = 11 - sum(d * w for d, w in zip(digits, weights, strict=False)) % 11
    return 0 if check == 11 else check


def fnr_valid(value: str) -> bool:
    """True for a Norwegian fødselsnummer (or D-number) with both mod-11 check digits."""
    raw = value.replace(" ", "")
    if len(raw) != 11 or not raw.isdigit():
        return False
    digits = [int(char) for char in raw]
    day, month = int(raw[:2]) % 40, int(raw[2:4]) % 40
    if not (1 <= day <= 31 and 1 <= month <= 12):
        return False
    first = _mod11(digits, (3, 7, 6, 1, 8, 9, 4, 5, 2))
    second = _mod11(digits, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2))
    return first == digits[9] and second == digits[10]


def tc_kimlik_valid(value: str) -> bool:
    """True for a Turkish identity number with both of its check digits."""
    if len(value) != 11 or not value.isdigit() or value[0] == "0":
        return False
    d = [int(char) for char in value]
    tenth = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    return tenth == d[9] and sum(d[:10]) % 10 == d[10]


def _zehut_valid(value: str) -> bool:
    return len(value) == 9 and value.isdigit() and luhn_valid_any(value)


_CUE: Final = re.compile(
    r"(?i)(?<![\w])(?P<nir>nir|insee|s[ée]cu(?:rit[ée][ _\-]sociale)?|nss)"
    r"|(?P<fnr>f(?:ø|o|oe)dselsnummer|f\.?nr|personnummer|d-nummer)"
    r"|(?P<tc>(?:t\.?c\.?[ _\-]?)?kimlik|tckn|tc[ _\-]?no|tc(?=[ \t]*[:=#]))"
    r"|(?P<zehut>(?:teudat|te'udat)[ _\-]zehut|zehut|teudat|israeli[ _\-]id|ת\.?ז|תעודת זהות)"
    r"(?![\w])"
)
_CANDIDATE: Final = re.compile(
    r"(?<![\w.\-])(?:[1-8] ?\d\d ?\d\d ?(?:\d\d|2[AaBb]) ?\d{3} ?\d{3} ?\d\d|\d{6} ?\d{5}|\d{9})"
    r"(?![\w\-]|\.\d)"
)
_CHECKS: Final[dict[str, Callable[[str], bool]]] = {
    "nir": nir_valid,
    "fnr": fnr_valid,
    "tc": lambda value: tc_kimlik_valid(value.replace(" ", "")),
    "zehut": _zehut_valid,
}


def _checked(text: str) -> str:
    pieces: list[str] = []
    position = 0
    for cue in _CUE.finditer(text):
        check = _CHECKS[cue.lastgroup or "nir"]
        start = max(cue.end(), position)
        for found in _CANDIDATE.finditer(text, start, min(len(text), cue.end() + _WINDOW)):
            if check(found.group(0)):
                pieces.append(text[position : found.start()] + _ID)
                position = found.end()
    if not pieces:
        return text
    return "".join(pieces) + text[position:]


_PIECE: Final = re.compile(
    r"nir|insee|s[ée]cu|nss|dselsnummer|f\.?nr|personnummer|d-nummer|kimlik|tckn|tc|zehut"
    r"|teudat|israeli|ז"
).search
"""A piece of every naming word, searched first: cheaper than ``_NAMED`` on every word."""
_NAMED: Final = re.compile(
    r"(?<![a-z])(?:nir|insee|s[ée]cu(?:rit[ée])?|securite|nss|f(?:ø|o|oe)dselsnummer|f\.?nr"
    r"|personnummer|d-nummer|kimlik|tckn|tc|zehut|teudat|israeli|ת\.?ז|זהות)(?![a-z])"
).search


def _gate(shape: str) -> bool:
    lowered = shape.lower()
    return _PIECE(lowered) is not None and _NAMED(lowered) is not None


CHECKED_IDS: Final = TextFamily(
    name="NIR, fødselsnummer, TC kimlik and teudat zehut numbers near their name",
    gate=_gate,
    probe=lambda lowered: _CUE.search(lowered) is not None,
    apply=_checked,
)
