"""Numbers of identity documents and dates of birth, after the words that name them.

* **Documents**: ``passport no. X12345678``, ``scanned passport C03005988``, ``driver
  license D1234-56789-01234``, ``driving licence MORGA753116SM9IJ``, ``passport number 123
  456 789``. The value is one word of letters, digits and dashes, or digit groups joined by
  single spaces, with at least five digits that is not a date (``passport
  service v2.3.1 started on 2026-12-01`` keeps its version and date).
* **Dates of birth**: ``born 12/04/1985``, ``date of birth: 1985-04-12``, ``DOB 3 May 1979``.
  A date under a key that names a birth date (``dob=``, ``"date_of_birth":``) is a credential
  key's value (``secret_keys``); when that rule replaced only the day of a date written in
  words (``date of birth: <SECRET> March 1990``), the rest of the date goes too.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["BIRTH_DATES", "DOCUMENT_NUMBERS"]

_ID: Final = Placeholder.NATIONAL_ID.value
_SECRET: Final = Placeholder.SECRET.value
_DOCUMENT: Final = re.compile(
    r"(?i)\b(passport|(?:driver'?s?|driving)[ _\-]licen[cs]e)"
    r"((?:[ \t]+(?:no\.?|number|num|nr\.?|id|#))?[ \t]*[:=#]?[ \t]*)"
    r"([A-Za-z0-9][A-Za-z0-9\-]{5,24}|[A-Z]{0,2}\d{2,4}(?:[ ]\d{2,6}){1,3})(?![\w.\-])"
)
_DATE: Final = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}-\d{1,2}-\d{2,4}").fullmatch


def _document(match: re.Match[str]) -> str:
    value = match.group(3)
    if sum(char.isdigit() for char in value) < 5 or _DATE(value) is not None:
        return match.group(0)
    return match.group(1) + match.group(2) + _ID


DOCUMENT_NUMBERS: Final = TextFamily(
    name="passport and driving licence numbers after their name",
    gate=lambda shape: "passport" in shape.lower() or "licen" in shape.lower(),
    probe=lambda lowered: "passport" in lowered or "licen" in lowered,
    apply=lambda text: _DOCUMENT.sub(_document, text),
)

_MONTH: Final = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]{0,6}\.?"
_BIRTH: Final = re.compile(
    r"(?i)\b(born(?:[ \t]+on)?|date[ \t]+of[ \t]+birth|d\.?o\.?b\.?|birth[ \t]?date|birthday)"
    r"([ \t]*[:=]?[ \t]*)"
    r"(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.\-]\d{1,2}[/.\-]\d{2,4}"
    r"|(?:\d{1,2}|<SECRET>)[ \t]+"
    + _MONTH
    + r"[ \t]+\d{4}|"
    + _MONTH
    + r"[ \t]+\d{1,2},?[ \t]+\d{4})"
    r"(?![\w/.\-])"
)
_BIRTH_WORDS: Final = frozenset({"born", "birth", "dob", "dob:", "birthdate", "birthday"})


BIRTH_DATES: Final = TextFamily(
    name="dates of birth after their name",
    gate=lambda shape: shape.lower().rstrip(":") in _BIRTH_WORDS,
    probe=lambda lowered: "born" in lowered or "birth" in lowered or "dob" in lowered,
    apply=lambda text: _BIRTH.sub(lambda m: m.group(1) + m.group(2) + _SECRET, text),
)
