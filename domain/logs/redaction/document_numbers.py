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
    r"(?i)\b(passport|(?:driver'?s?|driving)[ _\-]licen[cs]e"
    r"|dln(?=[ \t]*[:=#\s])|dl(?=[ \t]*(?:#|no\b|number)))"
    r"((?:[ \t]+(?:no\.?|number|num|nr\.?|id|#))?[ \t]*[:=#]?[ \t]*)"
    r"([A-Za-z0-9][A-Za-z0-9\-]{5,24}|[A-Z]{0,2}\d{2,4}(?:[ ]\d{2,6}){1,3})(?![\w.\-])"
)
_DL: Final = re.compile(r"(?i)dln?[#:=]?").fullmatch
"""A driving licence's short name (``DL#``, ``DLN``), followed in the text by ``#``, ``no``
or ``number``."""
_DATE: Final = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}-\d{1,2}-\d{2,4}").fullmatch


def _document(match: re.Match[str]) -> str:
    value = match.group(3)
    if sum(char.isdigit() for char in value) < 5 or _DATE(value) is not None:
        return match.group(0)
    return match.group(1) + match.group(2) + _ID


DOCUMENT_NUMBERS: Final = TextFamily(
    name="passport and driving licence numbers after their name",
    gate=lambda shape: (
        "passport" in shape.lower() or "licen" in shape.lower() or _DL(shape) is not None
    ),
    probe=lambda lowered: "passport" in lowered or "licen" in lowered or "dl" in lowered,
    apply=lambda text: _DOCUMENT.sub(_document, text),
)

_LABEL: Final = (
    r"born(?:[ \t]+on)?|date[ \t]+of[ \t]+birth|d\.?o\.?b\.?|birth[ \t_\-]?date|birthday"
    r"|geb\.?(?:[ \t]+am)?|geboren(?:[ \t]+(?:am|op))?|geburts(?:datum|tag)|geb\.?-?datum"
    r"|n[ée]e?[ \t]+le|date[ \t]+de[ \t]+naissance|naissance"
    r"|fecha[ \t]+de[ \t]+nacimiento|nacid[oa][ \t]+el|data[ \t]+di[ \t]+nascita"
    r"|nat[oa][ \t]+il|data[ \t]+de[ \t]+nascimento|nascid[oa][ \t]+em|geboortedatum"
    r"|data[ \t]+urodzenia|urodzon[ya]|födelsedatum|född|fødselsdato|født|syntymäaika"
    r"|syntynyt|doğum[ \t]+tarihi|datum[ \t]+narození|narozen[aý]?"
)
"""Names of a date of birth and the participles that give one (``born on``, ``geb.``,
``geboren am``, ``né le``, ``nata il``, ``urodzony``, ``født``), in the languages logs of
forms and records are written in."""
_BIRTH: Final = re.compile(
    r"(?i)(?<![\w.])(" + _LABEL + r")"
    r"((?:[ \t]*\([^()\n]{1,20}\))?(?:(?<=\.)[ \t]*[:=]?[ \t]*"
    r"|(?<!\.)[\"']?[ \t]*[:=\-–]?[ \t]*[\"']?(?<=[ \t:=\"'])))"
    r"(\d{4}[/.\-]\d{1,2}[/.\-]\d{1,2}|\d{1,2}[/.\-]\d{1,2}[/.\-]\d{2,4}"
    r"|\d{1,2}([/.\-])[^\W\d_]{3,10}\.?\4\d{2,4}"
    r"|(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
    r"|(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])(?:19|20)\d{2}"
    r"|(?:\d{1,2}|<SECRET>)\.?(?:st|nd|rd|th|er|º)?[ \t]+(?:de[ \t]+)?[^\W\d_]{3,10}\.?,?"
    r"[ \t]+(?:de[ \t]+)?\d{4}"
    r"|[^\W\d_]{3,10}\.?[ \t]+\d{1,2}(?:st|nd|rd|th)?,?[ \t]+\d{4})"
    r"(?![\w/.\-]|\.\d)"
)
"""A label, a separator (nothing after a dot, else ``:``, ``=`` or a space, a format in
brackets before it: ``DOB (MM/DD/YYYY):``), then a date: ISO, day-month-year with ``/``,
``.`` or ``-`` (the month also in words, ``01-FEB-1980``), eight digits that read as a
date, a day, a month in words (of any language) and a year, or a month in words, a day and a
year."""
_BIRTH_WORDS: Final = frozenset(
    {"born", "birth", "dob", "d.o.b", "birthdate", "birthday", "birth_date", "geb", "geboren"}
    | {"geburtsdatum", "geburtstag", "geb.-datum", "gebdatum", "né", "née", "nee", "ne"}
    | {"naissance", "nacimiento", "nacido", "nacida", "nascita", "nato", "nata", "nascimento"}
    | {"nascido", "nascida", "geboortedatum", "urodzenia", "urodzony", "urodzona"}
    | {"födelsedatum", "född", "fødselsdato", "født", "syntymäaika", "syntynyt", "doğum"}
    | {"narození", "narozen", "narozena", "narozený"}
)
_BIRTH_PROBE: Final = re.compile(
    r"born|birth|dob|d\.o\.b|geb|n[ée]e?[ \t]+le|naissance|nacimiento|nacid|nascita|nat[oa] il"
    r"|nascimento|nascid|geboorte|urodz|född|fødsels|født|syntym|doğum|narozen"
).search


def _birth_word(shape: str) -> bool:
    """A label alone, as a key (also quoted), or with a date glued to it
    (``geb.01.02.1980``)."""
    lowered = shape.lower().strip("{}[]\"',").rstrip("0./:=-\"'")
    return lowered in _BIRTH_WORDS or lowered.partition("=")[0].rstrip(":.") in _BIRTH_WORDS


BIRTH_DATES: Final = TextFamily(
    name="dates of birth after their name",
    gate=_birth_word,
    probe=lambda lowered: _BIRTH_PROBE(lowered) is not None,
    apply=lambda text: _BIRTH.sub(lambda m: m.group(1) + m.group(2) + _SECRET, text),
)
