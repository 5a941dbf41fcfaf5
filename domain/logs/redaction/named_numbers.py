"""Identity, bank account and telephone numbers of any country, after the word that names them.

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
out of the lexicon. A telephone number after its name (``phone=4155550132``, ``"msisdn":
"447700900123"``, ``Telefon 030123456``) goes when it holds seven to fifteen digits (what
E.164 allows): without its name a run of digits is no phone. A subscriber's, a SIM's, a
handset's or an advertising id after its name (``IMSI=262…``, ``+CCID: 8949…``, ``idfa=…``)
goes as ``<DEVICE_ID>`` when it holds ten digits or more.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["NAMED_NUMBERS"]

_ID: Final = Placeholder.NATIONAL_ID.value
_ACCOUNT: Final = Placeholder.IBAN.value
_PHONE: Final = Placeholder.PHONE.value
_DEVICE: Final = Placeholder.DEVICE_ID.value
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
_PHONE_NAMES: Final = frozenset(
    {"phone", "telephone", "tel", "mobile", "cellphone", "msisdn", "fax", "handy", "telefon"}
    | {"phone_number", "phonenumber", "phone-number", "phone_no", "mobile_number", "mobile_no"}
    | {"mobilenumber", "contact_number", "tel_no", "telno", "telephone_number", "cell_phone"}
    | {"handynummer", "telefonnummer", "telefono", "teléfono", "téléphone", "telefone"}
    | {"telefoonnummer", "puhelin", "電話", "电话", "手机", "携帯", "전화"}
)
"""Names of a telephone number (not ``cell``, ``number`` or ``contact`` alone: other things)."""
_CALLING_WORDS: Final = frozenset(
    {"dial", "dials", "dialing", "dialling", "dialed", "dialled", "calling", "caller", "callee"}
    | {"callerid", "caller_id", "anrufer", "appelant", "llamante", "chiamante"}
)
"""Words of calling: a number after them is a telephone number when it reads as one in one
word (a trunk ``0`` or ``00`` and a country code, or ten digits and more), so ``calling 3
handlers`` and ``calling 20260104 job`` stay."""
_DEVICE_NAMES: Final = frozenset(
    {"imsi", "iccid", "ccid", "imei", "imeisv", "meid", "idfa", "idfv", "gaid", "aaid", "adid"}
    | {"advertising_id", "advertisingid", "android_id", "ad_id", "msin"}
)
"""Names of an id that follows one person's phone or SIM (a subscriber's IMSI, a SIM's ICCID,
a handset's IMEI, an advertising id): personal data, like the number it dials."""
_PHONE_NAMES_ALL: Final = _PHONE_NAMES | _CALLING_WORDS
_NAMES: Final = _ID_NAMES | _ACCOUNT_NAMES | _PHONE_NAMES_ALL | _DEVICE_NAMES
_STRIP: Final = ":=#\"'.,;()[]{}+"
_LONGEST: Final = max(len(name) for name in _NAMES) + 4
_NAME_RUN: Final = "|".join(
    sorted((re.escape(name) for name in _NAMES), key=lambda name: -len(name))
)
_NAMED: Final = re.compile(
    r"(?i)(?<![\w\-])(" + _NAME_RUN + r")"
    r"((?:[ \t]*(?:-?nr\.?|-?no\.?|number|nummer|num|n[º°]|#|code|id)"
    r"|[\-_](?:nr\.?|no\.?|number|nummer|numero|número))?\.?[\"']?[ \t]*[:=#]?[ \t]*)"
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
    if len(head) > _LONGEST + 8:
        return False
    name = head.lower().strip(_STRIP)
    return name in _NAMES or (("-" in name or "_" in name) and _without_number(name) in _NAMES)


_NUMBER_WORDS: Final = frozenset({"nr", "no", "number", "nummer", "numero", "número"})


def _without_number(token: str) -> str:
    """A name with its word for *number* joined by a dash or an underscore
    (``Personalausweis-Nr.``, ``pesel_no``) taken off."""
    cut = max(token.rfind("-"), token.rfind("_"))
    return token[:cut] if cut > 0 and token[cut + 1 :] in _NUMBER_WORDS else token


def _named(match: re.Match[str]) -> str:
    value = match.group(4)
    digits = sum(char.isdigit() for char in value)
    name = match.group(1).lower()
    if name in _CALLING_WORDS:
        low = 7 if value[:1] == "0" else 10
        fits, placeholder = low <= digits <= 15 and value.isdigit(), _PHONE
    elif name in _PHONE_NAMES:
        fits, placeholder = 7 <= digits <= 15 and value.isdigit(), _PHONE
    elif name in _DEVICE_NAMES:
        fits, placeholder = 10 <= digits <= 32 and value.strip("0-") != "", _DEVICE
    elif name in _ACCOUNT_NAMES:
        fits, placeholder = 8 <= digits <= 24, _ACCOUNT
    else:
        fits, placeholder = 6 <= digits <= 24, _ID
    if not fits or _DATE(value) is not None or _DURATION(value) is not None:
        return match.group(0)
    return match.group(1) + match.group(2) + match.group(3) + placeholder


def _probe(lowered: str) -> bool:
    """A text holding one of the names as a word of its own (one scan, one set test)."""
    tokens = _TOKEN.findall(lowered)
    if not _NAMES.isdisjoint(tokens):
        return True
    return any(_without_number(token) in _NAMES for token in tokens if "-" in token or "_" in token)


NAMED_NUMBERS: Final = TextFamily(
    name="identity and account numbers after their name",
    gate=_name_word,
    probe=_probe,
    apply=lambda text: _NAMED.sub(_named, text),
)
