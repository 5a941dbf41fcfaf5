"""The machine-readable zone of a passport, an identity card or a visa (ICAO 9303): lines of
44 (passports), 36 or 30 (cards) characters of capitals, digits and the filler ``<``, with a
``<<`` (the filler between names and after the number) and five fillers or more. A line
holds the holder's names, or the document's number, nationality, date of birth and expiry:
the whole line goes. Lengths from 30 to 46 are read, as a zone copied by hand or by OCR may
gain or lose a filler; a line with any other character (``>`` of a placeholder, lower case)
is no such zone.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import WordFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["MRZ_LINES"]

_ID: Final = Placeholder.NATIONAL_ID.value
_MRZ: Final = re.compile(r"(?<![A-Za-z0-9<>])[A-Z0-9<]{30,46}(?![A-Za-z0-9<>])")


def _hint(shape: str) -> bool:
    return len(shape) >= 30 and "<<" in shape and ">" not in shape


def _mrz(match: re.Match[str]) -> str:
    found = match.group(0)
    fillers = found.count("<")
    if "<<" not in found or fillers < 5 or fillers == len(found):
        return found
    return _ID


MRZ_LINES: Final = WordFamily(
    name="machine-readable zones of travel documents",
    hint=_hint,
    pattern=_MRZ,
    replace=_mrz,
)
