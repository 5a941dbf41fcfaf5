"""Vehicle registration plates after the word that names them (``plate=LB19 XKT``,
``kennzeichen="M-KX 4821"``, ``licence_plate: AB-123-CD``, ``kenteken 12-ABC-3``): a plate
follows a car, and so its driver.

The name decides (``plate``, ``licence``/``license plate``, ``numberplate``, ``reg_plate``,
``vrm``, ``anpr`` plates and the words of other languages: ``kennzeichen``, ``immatriculation``,
``matrícula``, ``matricula``, ``targa``, ``kenteken``, ``rekisterinumero``, ``tablica``); the
value is one to three groups of capitals and digits joined by a space or a dash, quoted or
not, with a letter and a digit, six characters at least. ``plate=ok``, ``plate_count=12`` and
a lower-case word stay.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["LICENCE_PLATES"]

_PLATE: Final = Placeholder.PLATE.value
_NAMES: Final = (
    r"(?:licen[cs]e[_\- ]?plate|number[_\- ]?plate|reg[_\- ]?plate|plate|vrm|kennzeichen"
    r"|immatriculation|matr[ií]cula|targa|kenteken|rekisterinumero|tablica)"
)
_NAMED_PLATE: Final = re.compile(
    r"(?i)(?<![A-Za-z])(" + _NAMES + r"(?:[_\-]?(?:no|nr|number))?[\"']?[ \t]*[:=][ \t]*)"
    r"([\"']?)((?-i:[A-Z0-9]{1,4}(?:[ \-][A-Z0-9]{1,4}){0,2}))\2(?![\w\-])"
)
_NAME_WORDS: Final = frozenset(
    {"plate", "licence_plate", "license_plate", "licenceplate", "licenseplate", "numberplate"}
    | {"number_plate", "reg_plate", "plate_no", "plate_number", "vrm", "kennzeichen"}
    | {"immatriculation", "matrícula", "matricula", "targa", "kenteken", "rekisterinumero"}
    | {"tablica", "platenumber", "plateno", "licenseplatenumber"}
)
_STRIP: Final = "\"'{[(,:= "
_QUOTED: Final = re.compile(r"[a-zíé_]+").findall
_PIECES: Final = ("plate", "vrm", "kennz", "matri", "targa", "kentek", "rekist", "tablica")


def _gate(shape: str) -> bool:
    """A word whose key is a plate's name (``plate=``, ``kennzeichen=``, a ``key=`` word's
    key) or a quoted word holding one: a set test."""
    if '"' in shape:
        lowered = shape.lower()
        return any(map(lowered.__contains__, _PIECES)) and not _NAME_WORDS.isdisjoint(
            _QUOTED(lowered)
        )
    head = shape.split("=", 1)[0] if "=" in shape else shape
    if len(head) > 20:
        return False
    return head.lower().strip(_STRIP) in _NAME_WORDS


def _plate(match: re.Match[str]) -> str:
    value = match.group(3)
    letters = sum(char.isalpha() for char in value)
    digits = sum(char.isdigit() for char in value)
    if not letters or not digits or letters + digits < 5:
        return match.group(0)
    quote = match.group(2)
    return match.group(1) + quote + _PLATE + quote


LICENCE_PLATES: Final = TextFamily(
    name="vehicle registration plates after their name",
    gate=_gate,
    probe=lambda lowered: any(map(lowered.__contains__, _PIECES)),
    apply=lambda text: _NAMED_PLATE.sub(_plate, text),
)
