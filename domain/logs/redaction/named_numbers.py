"""Identity and bank account numbers of any country, after the word that names them.

Many countries' identity numbers have no shape of their own (``86095742719``, ``111222333``,
``1 85 05 78 006 084 36``, ``070761-4285``, ``123.456.789-09``), and neither has an account
number; only their name says what they are. The family's gate is a lexicon of such names in
the languages they are written in (``bsn``, ``pesel``, ``personnummer``, ``cpf``, ``curp``,
``aadhaar``, ``nric``, ``steuer-id``, ``rijksregisternummer``, ``身份证`` …, and ``account``,
``acct``, ``kontonummer`` …), optionally followed by a word for *number* (``no.``, ``nr``,
``number``, ``#``, ``-nr.``); the value is one word of digits and letters, or digit groups
joined by ``.``, ``-``, ``/`` or a space. It is replaced only when it holds six digits or more
(eight for an account) and is not a date, so ``account 4412 locked`` and ``dni lookup took
12ms`` stay. Names that are also common words (``run``, ``fin``, ``ein``, ``chi``) are left
out of the lexicon.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["NAMED_NUMBERS"]

_ID: Final = Placeholder.NATIONAL_ID.value
_ACCOUNT: Final = Placeholder.IBAN.value
_ID_NAMES: Final = frozenset(
    {
        # health and membership records
        "mrn",
        "patient",
        "member",
        "medicare",
        "medicaid",
        # Europe
        "bsn",
        "burgerservicenummer",
        "sofinummer",
        "pesel",
        "nip",
        "regon",
        "personnummer",
        "personnr",
        "samordningsnummer",
        "cpr",
        "cpr-nr",
        "cpr-nummer",
        "hetu",
        "henkilötunnus",
        "henkilotunnus",
        "fødselsnummer",
        "fodselsnummer",
        "kennitala",
        "isikukood",
        "steuer-id",
        "steuerid",
        "steueridentifikationsnummer",
        "idnr",
        "steuernummer",
        "sozialversicherungsnummer",
        "svnr",
        "ausweisnummer",
        "personalausweis",
        "ahv",
        "ahv-nr",
        "insee",
        "nir",
        "sociale",
        "rijksregisternummer",
        "rrn",
        "nif",
        "nie",
        "dni",
        "nss",
        "amka",
        "egn",
        "oib",
        "jmbg",
        "cnp",
        "emso",
        "ppsn",
        "pps",
        "nhs",
        "chi-nr",
        # Americas
        "cpf",
        "cnpj",
        "curp",
        "rfc",
        "cuit",
        "cuil",
        "rut",
        "itin",
        "ssn",
        "sin",
        # Asia, Oceania, Africa
        "aadhaar",
        "aadhar",
        "uidai",
        "nric",
        "mykad",
        "hkid",
        "tfn",
        "abn",
        "ird",
        "zehut",
        "身份证",
        "身份证号",
        "身份證",
        "マイナンバー",
        "個人番号",
        "주민등록번호",
        # generic
        "national-id",
        "national_id",
        "nationalid",
        "identity",
        "identification",
        "id-number",
        "id_number",
        "idnumber",
        "citizen",
        "taxpayer",
    }
)
_ACCOUNT_NAMES: Final = frozenset(
    {
        "account",
        "acct",
        "account_number",
        "account_no",
        "account-number",
        "accountnumber",
        "acct_no",
        "kontonummer",
        "konto",
        "rekeningnummer",
        "cuenta",
        "conta",
        "routing",
        "bsb",
    }
)
_NAMES: Final = _ID_NAMES | _ACCOUNT_NAMES
_STRIP: Final = ":=#\"'.,;()[]{}"
_LONGEST: Final = max(len(name) for name in _NAMES) + 4
_NAME_RUN: Final = "|".join(
    sorted((re.escape(name) for name in _NAMES), key=lambda name: -len(name))
)
_NAMED: Final = re.compile(
    r"(?i)(?<![\w\-])(" + _NAME_RUN + r")"
    r"((?:[ \t]*(?:-?nr\.?|-?no\.?|number|nummer|num|n[º°]|#|code|id))?\.?[\"']?[ \t]*[:=#]?[ \t]*)"
    r"([\"']?)([A-Za-z]{0,6}\d[\dA-Za-z]*(?:[.\-/]\w+)*(?:[ ]\d{1,5}(?:[.\-/]?\w)*)*)(?![\w.\-/])"
)
_TOKEN: Final = re.compile(r"[^\W\d_][\w\-]*")
_DATE: Final = re.compile(
    r"\d{4}[\-/.]\d{1,2}[\-/.]\d{1,2}(?:T[\d:.]+Z?)?|\d{1,2}[\-/.]\d{1,2}[\-/.]\d{4}"
).fullmatch
_DURATION: Final = re.compile(r"\d+(?:\.\d+)?(?:ns|us|ms|s|m|h|d|kb|mb|gb|%)", re.I).fullmatch


def _name_word(shape: str) -> bool:
    """A word holding one of the names (alone, as a key, or as a quoted key in a longer word:
    JSON without spaces)."""
    if '"' in shape or "'" in shape:
        lowered = shape.lower()
        if lowered.split("=", 1)[0].strip(_STRIP) in _NAMES:
            return True
        return len(lowered) > 6 and not _NAMES.isdisjoint(_TOKEN.findall(lowered))
    head = shape.split("=", 1)[0] if "=" in shape else shape
    return len(head) <= _LONGEST and head.lower().strip(_STRIP) in _NAMES


def _named(match: re.Match[str]) -> str:
    value = match.group(4)
    digits = sum(char.isdigit() for char in value)
    account = match.group(1).lower() in _ACCOUNT_NAMES
    if digits < (8 if account else 6) or digits > 24:
        return match.group(0)
    if _DATE(value) is not None or _DURATION(value) is not None:
        return match.group(0)
    placeholder = _ACCOUNT if account else _ID
    return match.group(1) + match.group(2) + match.group(3) + placeholder


def _probe(lowered: str) -> bool:
    """A text holding one of the names as a word of its own (one scan, one set test)."""
    return not _NAMES.isdisjoint(_TOKEN.findall(lowered))


NAMED_NUMBERS: Final = TextFamily(
    name="identity and account numbers after their name",
    gate=_name_word,
    probe=_probe,
    apply=lambda text: _NAMED.sub(_named, text),
)
