"""Bank, tax and health numbers confirmed by their own check or shape and by a word near them.

``named_numbers`` reads a number right after its name; here the name may stand a few words
before it (``sort code 20-00-00 account …``, ``aadhaar verification for 2345 6789 0124``,
``employer EIN 12-3456789``) because the number carries its own evidence:

* **US routing numbers** (ABA): nine digits whose 3-7-1 weighted sum is a multiple of ten,
  with a Federal Reserve prefix, near ``routing``, ``aba``, ``rtn``, ``ach``, ``transit``,
  ``wire``;
* **UK sort codes**: ``NN-NN-NN`` or six digits near ``sort code`` (the account number after
  them is ``named_numbers``');
* **Aadhaar numbers**: twelve digits, in one piece or in groups of four, not starting with 0
  or 1, passing the Verhoeff check, near ``aadhaar``/``uidai``;
* **US tax numbers**: ``NN-NNNNNNN``, ``NNN-NN-NNNN`` or nine digits near an upper-case
  ``EIN``, ``FEIN``, ``TIN``, ``ITIN`` (in lower case ``ein`` and ``tin`` are common words) or
  ``tax id``;
* **Medicare beneficiary identifiers** (MBI): eleven characters whose every position has its
  class (digit, letter without S L O I B Z, either), with or without dashes, near ``mbi``,
  ``medicare`` or ``beneficiary``;
* **Chilean RUT/RUN**: seven or eight digits (dotted in threes or not), a dash and the mod-11
  check character (a digit or ``K``), near ``rut``/``run`` (upper-case ``RUN`` only);
* **South African identity numbers**: thirteen digits whose first six are a date (``YYMMDD``),
  whose eleventh is the citizenship digit (0 or 1) and that pass Luhn, near ``sa``, ``rsa``,
  ``south african``, ``identity`` or ``id number``.

A number of these shapes with no such word near it stays: order ids, offsets and counts have
nine or twelve digits too. ``SHAPED_NUMBERS`` reads the shapes that need no word: Brazil's
CPF ``NNN.NNN.NNN-NN`` with both check digits (one whose check fails is no CPF, one random
number in a hundred passes: a build or batch tag of that shape stays as written, and is no
phone either, ``phones``), CNPJ ``NN.NNN.NNN/NNNN-NN`` with both mod-11 check digits, a
dotted RUT with its check character, and an MBI written with its two dashes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily, WordFamily
from factledger.domain.logs.redaction.patterns import luhn_valid_any
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = [
    "CHECKED_NUMBERS",
    "SHAPED_NUMBERS",
    "aba_valid",
    "cpf_valid",
    "rut_valid",
    "sa_id_valid",
    "verhoeff_valid",
]

_ID: Final = Placeholder.NATIONAL_ID.value
_ACCOUNT: Final = Placeholder.IBAN.value
_WINDOW: Final = 48
"""How far after its naming word a number is still read as the one it names."""

_ROUTING: Final = frozenset({"routing", "aba", "rtn", "ach", "transit", "wire", "fedwire"})
_SORT: Final = frozenset({"sortcode", "sort_code", "sort-code", "sort"})
_AADHAAR: Final = frozenset({"aadhaar", "aadhar", "uidai"})
_TAX_UPPER: Final = frozenset({"EIN", "FEIN", "TIN", "ITIN", "ATIN", "PTIN", "RUN"})
"""Naming words that count in upper case only (``ein``, ``tin``, ``run``: common words)."""
_TAX: Final = frozenset({"taxid", "tax_id", "tax-id", "tax"})
_MBI: Final = frozenset({"mbi", "medicare", "beneficiary"})
_RUT: Final = frozenset({"rut", "r.u.t", "r.u.t.", "rol"})
_SA_ID: Final = frozenset(
    {"sa", "rsa", "african", "south-african", "south_african", "identity", "idnumber"}
    | {"id_number", "id-number", "id_no", "id-no", "idno"}
)
_CUE_WORDS: Final = _ROUTING | _SORT | _AADHAAR | _TAX | _MBI | _RUT | _SA_ID
_STRIP: Final = ":=#\"'.,;()[]{}"

_L: Final = "AC-HJKMNP-RT-Y"
"""The letters of an MBI (no S, L, O, I, B or Z)."""
_MBI_SHAPE: Final = rf"[1-9][{_L}][{_L}\d]\d-?[{_L}][{_L}\d]\d-?[{_L}][{_L}]\d\d"
_MBI_FULL: Final = re.compile(_MBI_SHAPE).fullmatch
_CANDIDATE: Final = re.compile(
    r"(?<![\w.\-/])(?:\d{2}-\d{2}-\d{2}|\d{2}-\d{7}|\d{3}-\d{2}-\d{4}"
    r"|\d{4}[ \-]\d{4}[ \-]\d{4}|\d{1,2}\.\d{3}\.\d{3}-[\dkK]|\d{7,8}-[\dkK]|\d{6,13}|"
    + _MBI_SHAPE
    + r")(?![\w\-/]|\.\d)"
)
_CUE: Final = re.compile(
    r"(?<![\w\-])(routing|aba|rtn|ach|transit|wire|fedwire|sort[ _\-]?code|aadhaa?r|uidai"
    r"|f?ein|[iap]?tin|tax[ _\-]?id|mbi|medicare|beneficiary|r\.?u\.?t\.?|run|rol [uú]nico"
    r"|r?sa|south[ _\-]?african|identity|id[ _\-]?(?:number|no))"
    r"(?:[_\-](?:number|num|no|nr|id|code))?(?![\w\-])",
    re.IGNORECASE,
)
_UPPER_ONLY: Final = frozenset(word.lower() for word in _TAX_UPPER)


def aba_valid(digits: str) -> bool:
    """True for nine digits with a Federal Reserve prefix and the 3-7-1 check."""
    if len(digits) != 9 or not digits.isdigit():
        return False
    prefix = int(digits[:2])
    if not (prefix <= 12 or 21 <= prefix <= 32 or 61 <= prefix <= 72 or prefix == 80):
        return False
    return sum(int(d) * w for d, w in zip(digits, (3, 7, 1) * 3, strict=True)) % 10 == 0


def _dihedral(i: int, j: int) -> int:
    """The product of the dihedral group D5, on which the Verhoeff check is built."""
    if i < 5 and j < 5:
        return (i + j) % 5
    if i < 5:
        return (i + j) % 5 + 5
    if j < 5:
        return (i - j) % 5 + 5
    return (i - j) % 5


_STEP: Final = (1, 5, 7, 6, 2, 8, 3, 0, 9, 4)
"""The Verhoeff permutation, applied once per position (eight times is the identity)."""


def verhoeff_valid(digits: str) -> bool:
    """True when a run of digits passes the Verhoeff check (its check digit last)."""
    check = 0
    for position, char in enumerate(reversed(digits)):
        digit = int(char)
        for _ in range(position % 8):
            digit = _STEP[digit]
        check = _dihedral(check, digit)
    return check == 0


def _sort_code(value: str) -> bool:
    return re.fullmatch(r"\d{2}-\d{2}-\d{2}|\d{6}", value) is not None


def _aadhaar(value: str) -> bool:
    digits = value.replace(" ", "").replace("-", "")
    return len(digits) == 12 and digits[0] not in "01" and verhoeff_valid(digits)


def _tax(value: str) -> bool:
    return re.fullmatch(r"\d{2}-\d{7}|\d{3}-\d{2}-\d{4}|\d{9}", value) is not None


def _mbi(value: str) -> bool:
    return _MBI_FULL(value) is not None


def rut_valid(value: str) -> bool:
    """True for a RUT/RUN (``12.345.678-5``, ``7654321-K``) whose check character is right."""
    body, _, check = value.replace(".", "").partition("-")
    if not 7 <= len(body) <= 8 or not body.isdigit() or len(check) != 1:
        return False
    total = sum(int(d) * (2 + i % 6) for i, d in enumerate(reversed(body)))
    expected = "0123456789K0"[11 - total % 11]
    return check.upper() == expected


def sa_id_valid(value: str) -> bool:
    """True for a South African identity number: a ``YYMMDD`` date, the citizenship digit 0
    or 1, and Luhn."""
    if len(value) != 13 or not value.isdigit() or value[10] not in "01":
        return False
    month, day = int(value[2:4]), int(value[4:6])
    return 1 <= month <= 12 and 1 <= day <= 31 and luhn_valid_any(value)


_CHECKS: Final[tuple[tuple[frozenset[str], Callable[[str], bool], str], ...]] = (
    (_ROUTING, aba_valid, _ACCOUNT),
    (_SORT | {"sort code"}, _sort_code, _ACCOUNT),
    (_AADHAAR, _aadhaar, _ID),
    (_UPPER_ONLY | _TAX | {"tax id"}, _tax, _ID),
    (_MBI, _mbi, _ID),
    (_RUT | {"run", "rol unico", "rol único"}, rut_valid, _ID),
    (_SA_ID | {"south african", "id number", "id no", "id-no", "id_no"}, sa_id_valid, _ID),
)
"""Per kind of number: the words that name it, its check, and its placeholder."""


def _checked(text: str) -> str:
    pieces: list[str] = []
    position = 0
    for cue in _CUE.finditer(text):
        word = cue.group(1)
        lowered = re.sub(r"\s+", " ", word.lower())
        if lowered in _UPPER_ONLY and word != word.upper():
            continue  # ``ein``, ``tin``: common words in lower case
        checks = [(test, mark) for names, test, mark in _CHECKS if lowered in names]
        start = max(cue.end(), position)
        for found in _CANDIDATE.finditer(text, start, min(len(text), cue.end() + _WINDOW)):
            mark = next((mark for test, mark in checks if test(found.group(0))), None)
            if mark is not None:
                pieces.append(text[position : found.start()] + mark)
                position = found.end()
    if not pieces:
        return text
    return "".join(pieces) + text[position:]


def _cue_word(shape: str) -> bool:
    """A word holding a naming word: alone, as a key, or inside JSON (``"routing_number":``).

    Inside a longer word the naming word is a run of letters of its own (``routing`` in
    ``"routing_number":``); the naming words of two runs are ``r.u.t`` and ``id`` with
    ``number`` or ``no`` (``id_number``), the others have a run that names alone."""
    core = shape.strip(_STRIP)
    if core in _TAX_UPPER or core.lower() in _CUE_WORDS:
        return True
    if len(core) <= 3 or core.isalnum():
        return False
    runs = _LETTER_RUNS(core)
    if any(run in _TAX_UPPER or run.lower() in _RUN_WORDS for run in runs):
        return True
    lowered = core.lower()
    if "r.u.t" in lowered:
        return True
    return any(run.lower() == "id" for run in runs) and ("number" in lowered or "no" in lowered)


_LETTER_RUNS: Final = re.compile(r"[A-Za-z]+").findall
_RUN_WORDS: Final = frozenset(word for word in _CUE_WORDS if word.isalpha())
"""The naming words written as one run of letters."""


CHECKED_NUMBERS: Final = TextFamily(
    name="routing, sort code, Aadhaar, US tax and Medicare numbers near their name",
    gate=_cue_word,
    probe=lambda lowered: _CUE.search(lowered) is not None,
    apply=_checked,
)
"""Gated on the naming word: the numbers' own shapes (four, six, nine or twelve digits) are
too common to gate on."""


def cpf_valid(digits: str) -> bool:
    """True for eleven digits, not all alike, with both CPF mod-11 check digits right."""
    numbers = [int(d) for d in digits]
    if len(numbers) != 11 or len(set(numbers)) == 1:
        return False
    for size in (9, 10):
        total = sum(n * (size + 1 - i) for i, n in enumerate(numbers[:size]))
        if (total * 10) % 11 % 10 != numbers[size]:
            return False
    return True


def _cnpj_valid(digits: str) -> bool:
    numbers = [int(d) for d in digits]
    weights = (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
    for size in (12, 13):
        total = sum(n * w for n, w in zip(numbers[:size], weights[13 - size :], strict=True))
        check = 11 - total % 11
        if (0 if check >= 10 else check) != numbers[size]:
            return False
    return len(set(numbers)) > 1


_SHAPED_HINT: Final = re.compile(
    r"000\.000\.000-00|00\.000\.000/0000-00|0?0\.000\.000-[0Kk]|0[A-Z][A-Z0]0-[A-Z][A-Z0]0-[A-Z]{2}00"
).search


def _shaped(match: re.Match[str]) -> str:
    found = match.group(0)
    if match.lastgroup == "mbi":
        return _ID
    if match.lastgroup == "rut":
        return _ID if rut_valid(found) else found
    digits = "".join(char for char in found if char.isdigit())
    valid = cpf_valid(digits) if len(digits) == 11 else _cnpj_valid(digits)
    return _ID if valid else found


SHAPED_NUMBERS: Final = WordFamily(
    name="CPF, CNPJ and dotted RUT with their check digits, MBIs with their dashes",
    hint=lambda shape: "-" in shape and _SHAPED_HINT(shape) is not None,
    pattern=re.compile(
        r"(?<![\w.\-/])(?:\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}"
        r"|(?P<rut>\d{1,2}\.\d{3}\.\d{3}-[\dkK])"
        rf"|(?P<mbi>[1-9][{_L}][{_L}\d]\d-[{_L}][{_L}\d]\d-[{_L}][{_L}]\d\d))(?![\w\-/]|\.\d)"
    ),
    replace=_shaped,
)
