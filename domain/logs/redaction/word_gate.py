"""Which words may start a context pattern, and what a ``key=`` prefix says about the value
after it. Both are decided once per distinct word (or key) and remembered by the redactor."""

from __future__ import annotations

import re
from enum import Enum
from functools import cache
from typing import Final

from factledger.domain.logs.redaction.auth_headers import scheme_word
from factledger.domain.logs.redaction.call_arguments import is_credential_call
from factledger.domain.logs.redaction.context import secret_value
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.registry import confirm_gates, text_families_gated
from factledger.domain.logs.redaction.secret_keys import is_secret_key
from factledger.domain.logs.redaction.value_shapes import keeps_value

__all__ = [
    "CONTEXT",
    "DIGIT_GROUP",
    "FAMILY_SHIFT",
    "HAS_LETTER",
    "KEY",
    "PHONE",
    "PHONE_START",
    "KeyKind",
    "confirmed_flags",
    "gated",
    "key_kind",
    "keyed_value",
    "number_flags",
    "shape_flags",
]

_HOST: Final = Placeholder.HOST.value
_PID: Final = Placeholder.PID.value
_POD: Final = Placeholder.POD.value

CONTEXT: Final = 1
"""The word may start a context pattern."""
PHONE: Final = 2
"""The word may start a telephone number written with spaces."""
DIGIT_GROUP: Final = 4
"""The word may be one group of a card number written with spaces."""
FAMILY_SHIFT: Final = 3
"""Bits from this one up: the text families of the registry the word may start a value of
(bit ``FAMILY_SHIFT + i`` for family ``i``)."""
_GATE_WORDS: Final = (
    "pass",
    "pwd",
    "secret",
    "token",
    "auth",
    "bearer",
    "basic",
    "digest",
    "cookie",
    "sessid",
    "sessionid",
    "cvv",
    "cvc",
    "cred",
    "jwt",
    "salt",
    "priv",
    "birth",
    "-----begin",
    "mysql",
    "--user",
)
_EXACT_WORD: Final = (
    r"(?<![a-z0-9_])(?:select|insert|update|delete|replace|pods?|pid|ppid|tid|process)"
    r"(?![a-z0-9_])"
)
"""Words that start a context pattern only as a whole word (``SELECT``, ``pid 42``)."""
_KEY_GATE: Final = (
    r"apikey|accountkey|(?:api|access|signing|encryption|client|account|master|license|ssh|gpg"
    r"|pgp|tls|ssl|shared|storage|app|application|consumer|subscription|webhook|service|admin"
    r"|root|hmac|session|x|merchant|transaction|partner|integration)[_.\-]?key"
)
_SEPARATOR_GATE: Final = (
    r"(?:session|sig|signature|sid|sas|otp|pin|psk|pw|dob|host|hostname|host_name|node|nodename"
    r"|node_name|fqdn)[\"']?[=:]"
    r"|(?:pods?|pod_?name|pid|ppid|tid|process|process_?id)[\"']?[=:#/]"
)
_KEY_NAME: Final = re.compile(_KEY_GATE).search
_WHOLE_WORD: Final = re.compile(_EXACT_WORD).search
_WHOLE_WORD_STEMS: Final = (
    "select",
    "insert",
    "update",
    "delete",
    "replace",
    "pod",
    "pid",
    "tid",
    "process",
)
"""A piece of every word ``_EXACT_WORD`` names."""
_SEPARATED_KEY: Final = re.compile(_SEPARATOR_GATE).search
_SHORT_KEY_END: Final = re.compile(r"(?:^|[_.\-])(?:pw|psk|otp|pin|sid|sas)[\"']?$").search
"""A key ending in a short credential word, before a spaced separator (``bind_pw = …``)."""
_SHORT_KEY_WORDS: Final = ("pw", "psk", "otp", "pin", "sid", "sas")


def gated(lowered: str) -> bool:
    """True when a (lower-cased) word may start a context pattern; a line without such a word
    skips every context pattern. Each pattern runs only on a word holding a piece that all of
    its matches hold (``key``, a whole keyword's stem, a separator)."""
    if lowered == "-u" or any(map(lowered.__contains__, _GATE_WORDS)):
        return True
    if "key" in lowered and _KEY_NAME(lowered) is not None:
        return True
    if any(map(lowered.__contains__, _WHOLE_WORD_STEMS)) and _WHOLE_WORD(lowered) is not None:
        return True
    if ("=" in lowered or ":" in lowered or "#" in lowered or "/" in lowered) and _SEPARATED_KEY(
        lowered
    ) is not None:
        return True
    return (
        len(lowered) <= 40
        and lowered.rstrip("\"'").endswith(_SHORT_KEY_WORDS)
        and _SHORT_KEY_END(lowered) is not None
    )


KEY: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]{0,63}").fullmatch
"""A ``key`` before ``=`` (letters, digits, ``_ . -``)."""
HAS_LETTER: Final = re.compile(r"[A-Za-z]").search
PHONE_START: Final = re.compile(r"\+\d|\(\d{3}\)")


class KeyKind(Enum):
    """What a ``key=`` prefix says about the value after it."""

    PLAIN = "plain"
    CONTEXT = "context"
    SECRET = "secret"
    HOST = "host"
    PID = "pid"
    POD = "pod"


_HOST_KEYS: Final = frozenset(
    {"host", "hostname", "host_name", "node", "nodename", "node_name", "fqdn"}
)
_PID_KEYS: Final = frozenset({"pid", "ppid", "tid", "process_id", "processid"})
_POD_KEYS: Final = frozenset({"pod", "pods", "pod_name", "podname"})
_HOST_VALUE: Final = re.compile(
    r"(?=[A-Za-z0-9.\-]*[A-Za-z])([A-Za-z0-9](?:[A-Za-z0-9.\-]*[A-Za-z0-9])?)([^A-Za-z0-9.\-<].*)?"
).fullmatch
_PID_VALUE: Final = re.compile(r"(\d{1,9})(\D.*)?").fullmatch
_POD_VALUE: Final = re.compile(r"([a-z0-9](?:[a-z0-9.\-]*[a-z0-9])?)([^a-z0-9.\-<].*)?").fullmatch


def key_kind(key: str) -> KeyKind:
    name = key[:-1].strip("-")
    lowered = name.lower()
    if is_secret_key(name):
        return KeyKind.SECRET
    if lowered in _HOST_KEYS:
        return KeyKind.HOST
    if lowered in _PID_KEYS:
        return KeyKind.PID
    if lowered in _POD_KEYS:
        return KeyKind.POD
    return KeyKind.CONTEXT if gated(key.lower()) else KeyKind.PLAIN


def _credential_call(value: str) -> bool:
    """True for a call that takes a password by position (``auth=HTTPBasicAuth("ci",``): the
    whole line tells which argument goes."""
    called = _CALLED(value)
    return called is not None and is_credential_call(called.group(1))


_CALLED: Final = re.compile(r"([A-Za-z_][\w.]*)\(").match


def keyed_value(kind: KeyKind, value: str, key: str = "") -> str | None:
    """The value after a credential, host, pid or pod key, replaced; ``value`` itself when
    only the whole line can tell (an opening quote whose closing one is further on); None
    when the value has not the shape the key announces."""
    if kind is KeyKind.SECRET:
        if value[:1] in ("'", '"') and not (len(value) >= 2 and value[-1] == value[0]):
            return value
        if keeps_value(key[:-1], value):
            return None
        if scheme_word(key, value) or _credential_call(value):
            return value
        return secret_value(value)
    if kind is KeyKind.HOST:
        found = _HOST_VALUE(value)
        placeholder = _HOST
    elif kind is KeyKind.PID:
        found = _PID_VALUE(value)
        placeholder = _PID
    else:
        found = _POD_VALUE(value)
        placeholder = _POD
    if found is None:
        return None
    return placeholder + (found.group(2) or "")


_INNER_PHONE: Final = re.compile(r"(?<![\w+])\+0{7}").search
"""A ``+`` and seven digits inside a word (``"to":"+447700900123"``): may be a phone."""
_QUOTES: Final = "\"'"
_OPENERS: Final = "\"'["
"""What may stand before a spaced phone's ``+`` in its first word (``phone="+44 20 …"``,
``[+1 415 …``)."""


def shape_flags(shape: str) -> int:
    """The context flags of a word of this shape (digits made ``0``): context pattern,
    spaced phone, quoted card group, and the text families its shape passes."""
    flags = 0
    if HAS_LETTER(shape) is not None and gated(shape.lower()):
        flags = CONTEXT
    lead = shape.lstrip(_OPENERS) if shape[:1] in _OPENERS else shape
    if (lead[:1] in ("+", "(") and PHONE_START.match(lead) is not None) or (
        "+0000000" in shape and _INNER_PHONE(shape) is not None
    ):
        flags |= PHONE
    core = shape.strip(_QUOTES)
    if core != shape and 4 <= len(core) <= 7 and core.isdigit():
        flags |= DIGIT_GROUP
    return flags | text_families_gated(shape) << FAMILY_SHIFT


def confirmed_flags(word: str, flags: int) -> int:
    """A word's flags from those of its shape, the gates that a family confirms on the word
    itself read again (``TextFamily.confirm``)."""
    low = flags & ((1 << FAMILY_SHIFT) - 1)
    return low | confirm_gates(word, flags >> FAMILY_SHIFT) << FAMILY_SHIFT


@cache
def number_flags(length: int, leading_zero: bool) -> int:
    """The text family flags of a number: they depend only on its length and whether it
    starts with ``0``, so they are decided once per such pair."""
    digits = ("0" if leading_zero else "1") + "0" * (length - 1)
    return text_families_gated(digits) << FAMILY_SHIFT
