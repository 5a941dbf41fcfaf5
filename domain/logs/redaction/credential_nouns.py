"""Credentials written after a noun that names them, and ``user:password`` pairs after a word
that says they are a login.

* **Named keys**: ``api key 0c3f9a1e-…``, ``client secret: Hq7L…``, ``access key AbC9…``,
  ``new secret Zq8X…``, ``license key 3f25…`` (a bare ``key`` unless the word before it makes
  it an identifier: ``cache key``, ``partition key``, ``idempotency key`` …). The value is
  replaced only when it is shaped like a key: 16 or more
  characters of one word that mix upper case, lower case and digits, or a UUID. Words, names
  (``secret store orders-db``), counts and durations after the same nouns stay.
* **Setter calls**: ``setPassword("…")``, ``with_api_key('…')``: a quoted argument of a
  call whose name is a credential key's (``secret_keys.is_secret_key``); with a name first
  (``set_password("bob", "…")``), the last of its literals (``call_arguments``).
* **User information without a scheme**: ``app:Hx9-pass22@tcp(db:3306)/shop`` (a Go DSN),
  ``scott:Tiger26@orcl``: the part between ``:`` and ``@`` when shaped like a password.
* **Login pairs**: ``login backup:Xp4ss-2026``, ``credentials reporter/Rp0rt!ng9``, ``creds
  admin:S3cr3t``. The part after ``:`` or ``/`` is replaced when it is shaped like a password
  (``credential_phrases.password_shaped``); a port (``login db01:5432``) or a word stays.
  ``chpasswd`` reads the same pairs (``chpasswd <<< 'jdoe:…'``).
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.call_arguments import (
    getter_result,
    is_getter,
    last_literal_of_a_setter,
)
from factledger.domain.logs.redaction.credential_phrases import password_shaped
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.secret_keys import is_secret_key

__all__ = ["LOGIN_PAIRS", "NAMED_KEYS", "SETTER_CALLS", "USERINFO_WORDS", "key_shaped"]

_SECRET: Final = Placeholder.SECRET.value
_QUALIFIED: Final = (
    r"(?:api|access|client|secret|private|signing|app|auth|refresh|bearer|encryption|master"
    r"|hmac|aes|shared|wrapping|symmetric|webhook|deploy)"
)
_NAMED_KEY: Final = re.compile(
    r"(?i)\b(" + _QUALIFIED + r"[ _\-]?(?:key|secret|token)|secret|token|key)"
    r"(\s*:?[ \t]+(?:is[ \t]+)?)([A-Za-z0-9+/=_\-.~]{16,})(?![A-Za-z0-9+/=_\-.~])"
)
_HEX_KEY: Final = re.compile(r"[0-9a-fA-F]{32,}").fullmatch
"""Key material written in hex (``encryption key: 0123…cdef``): after a qualified name only
(``cache key``, ``commit`` and trace ids are hex too)."""
_UUID: Final = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
).fullmatch
_NOUNS: Final = frozenset({"key", "secret", "token", "apikey"})
_NOUN_ENDS: Final = ("_key", "-key", "_secret", "-secret", "_token", "-token")


def _names_key(shape: str) -> bool:
    word = shape.lower().rstrip(":")
    return word in _NOUNS or word.endswith(_NOUN_ENDS)


def key_shaped(value: str) -> bool:
    """True when a value is shaped like a key: a UUID, or 16 or more characters mixing upper
    case, lower case and digits."""
    if _UUID(value) is not None:
        return True
    return (
        len(value) >= 16
        and any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
    )


_ID_KEYS: Final = frozenset(
    {
        "cache",
        "partition",
        "sort",
        "primary",
        "foreign",
        "unique",
        "composite",
        "routing",
        "idempotency",
        "dedup",
        "dedupe",
        "deduplication",
        "object",
        "row",
        "shard",
        "lookup",
        "map",
        "hash",
        "index",
        "bucket",
        "message",
        "event",
        "group",
        "record",
        "entity",
        "join",
        "public",
        "correlation",
        "request",
        "lock",
    }
)
"""Words before a bare ``key`` that make it an identifier (``cache key``, ``partition key``),
never a credential."""


def _bare_key_value(match: re.Match[str], value: str) -> bool:
    """True when a bare ``key``'s value is a credential: a UUID, or key-shaped without the
    ``/`` or ``.`` of a path, and the word before ``key`` does not make it an identifier."""
    before = match.string[max(0, match.start() - 24) : match.start()].split()
    if before and before[-1].lower().strip("\"'(") in _ID_KEYS:
        return False
    return _UUID(value) is not None or ("/" not in value and "." not in value)


def _named_key(match: re.Match[str]) -> str:
    value = match.group(3).rstrip(".,;")
    qualified = match.group(1).lower() not in _NOUNS
    if not key_shaped(value) and not (qualified and _HEX_KEY(value) is not None):
        return match.group(0)
    if match.group(1).lower() == "key" and not _bare_key_value(match, value):
        return match.group(0)
    return match.group(1) + match.group(2) + _SECRET + match.group(3)[len(value) :]


NAMED_KEYS: Final = TextFamily(
    name="keys, secrets and tokens after their name",
    gate=_names_key,
    after_key=False,
    probe=lambda lowered: "key" in lowered or "secret" in lowered or "token" in lowered,
    apply=lambda text: _NAMED_KEY.sub(_named_key, text),
)

_LOGIN_PAIR: Final = re.compile(
    r"(?i)\b(log[io]n|log[ \t]+in|sign(?:ed)?[ \t]+in|credentials?|creds|chpasswd"
    r"|addauth[ \t]+digest)"
    r"([ \t]+(?:(?:with|as|using)[ \t]+)?(?:<<<[ \t]*)?[\"']?)"
    r"([A-Za-z][\w.\-@]{0,63})([ \t]?[:/][ \t]?)"
    r"([^\s\"'<]\S*)"
)
_LOGIN_WORDS: Final = frozenset(
    {"login", "logon", "credential", "credentials", "creds", "login:", "credentials:", "chpasswd"}
    | {"log", "sign", "signed", "addauth"}
)


def _login_pair(match: re.Match[str]) -> str:
    value = match.group(5)
    core = value.rstrip(".,;)\"'")
    if len(core) < 6 or not password_shaped(core):
        return match.group(0)
    head = match.group(1) + match.group(2) + match.group(3) + match.group(4)
    return head + _SECRET + value[len(core) :]


LOGIN_PAIRS: Final = TextFamily(
    name="user and password pairs after a login word",
    gate=lambda shape: shape.lower() in _LOGIN_WORDS,
    after_key=False,
    probe=lambda lowered: (
        "log" in lowered
        or "cred" in lowered
        or "sign" in lowered
        or "chpasswd" in lowered
        or "addauth" in lowered
    ),
    apply=lambda text: _LOGIN_PAIR.sub(_login_pair, text),
)

_SECRET_WORD: Final = re.compile(r"pass|pwd|secret|token|key|auth|cred").search
_SETTER_CALL: Final = re.compile(r"\b([A-Za-z_][\w.]{0,63})\(\s*([\"'])([^\"'\n]+)\2")


def _setter_calls(text: str) -> str:
    """The credential in each call named after one: its only or first literal, or the last
    of two or more (``set_password("bob", "…")``: a name, then the value)."""
    pieces: list[str] = []
    position = 0
    for match in _SETTER_CALL.finditer(text):
        if match.start() < position or not is_secret_key(match.group(1).rsplit(".", 1)[-1]):
            continue
        if is_getter(match.group(1)):
            spot = getter_result(text, match.end(1) + 1)
            if spot is not None:
                pieces.append(text[position : spot[0]] + _SECRET)
                position = spot[1]
            continue
        spot = last_literal_of_a_setter(text, match.end(1) + 1)
        start, end = spot if spot is not None else (match.start(3), match.end(3))
        pieces.append(text[position:start] + _SECRET)
        position = end
    if not pieces:
        return text
    return "".join(pieces) + text[position:]


SETTER_CALLS: Final = TextFamily(
    name="credentials passed to a call named after them",
    gate=lambda shape: "(" in shape and is_secret_key(shape.split("(", 1)[0][-40:]),
    probe=lambda lowered: "(" in lowered and _SECRET_WORD(lowered) is not None,
    apply=_setter_calls,
)

_USERINFO_WORD: Final = re.compile(
    r"(?<![\w.\-/:])([A-Za-z_][\w.\-]{0,63}):([^\s:@/\"'<]{6,128})@"
    r"(?=(?:tcp|udp|unix)\(|\[|(?![0-9a-f]+(?:[\s,;)\]]|$))[A-Za-z][\w\-]*(?:\.[\w\-]+)*(?:[:/,;]|\s|$))"
)
"""``user:password@`` before a host name (never a number or a hex hash, as in Java's
``Thread:Class@325`` and ``Object@6d06d69c``), a bracketed address or a Go DSN's ``tcp(``."""


def _userinfo(match: re.Match[str]) -> str:
    if not password_shaped(match.group(2)):
        return match.group(0)
    return match.group(1) + ":" + _SECRET + "@"


def _may_hold_userinfo(shape: str) -> bool:
    """``:`` before ``@`` and a letter or bracket after it (``Class@325`` never passes)."""
    at = shape.find("@")
    if at <= 0 or ":" not in shape[:at] or "://" in shape:
        return False
    after = shape[at + 1 : at + 2]
    return after.isalpha() or after == "["


USERINFO_WORDS: Final = TextFamily(
    name="user:password@host without a scheme (Go and JDBC-style DSNs)",
    gate=_may_hold_userinfo,
    confirm=lambda word: (
        _USERINFO_WORD.search(word) is not None
        and any(password_shaped(found.group(2)) for found in _USERINFO_WORD.finditer(word))
    ),
    probe=lambda lowered: "@" in lowered and ":" in lowered,
    apply=lambda text: _USERINFO_WORD.sub(_userinfo, text),
)
