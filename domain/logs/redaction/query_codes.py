"""One-time codes in a URL's query: OAuth authorization codes (``?code=…``), device and user
codes, OAuth 1 verifiers and request tokens, CAS service tickets (``?ticket=ST-…``); and a
password right after a user in a query (InfluxDB's ``?u=admin&p=…``), whatever its shape
but a page number's.

Whoever reads such a code before it is redeemed can redeem it, so it is a credential, but
its parameter names nothing secret: ``code`` is an error or status code elsewhere. Inside a
query (after ``?``, ``&``, ``#`` or ``;``) the value goes when it is shaped like a generated
code: ten characters or more with a digit or both cases, and not a word of lower case letters
and ``_`` (``error_code=invalid_grant``); a code whose body an earlier family replaced goes
whole (``ST-4211-<SECRET>``). ``?code=200``, ``&code=E1042`` and a ``code=`` key outside a URL
stay.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import WordFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["QUERY_CODES"]

_SECRET: Final = Placeholder.SECRET.value
_NAMES: Final = (
    "code",
    "auth_code",
    "authorization_code",
    "device_code",
    "user_code",
    "oauth_verifier",
    "oauth_token",
    "ticket",
)
_QUERY_CODE: Final = re.compile(
    r"(?<=[?&#;])(?:(" + "|".join(_NAMES) + r")=((?:[^&#\s\"'<>;]|<[A-Z]{2,12}>){10,512})"
    r"|(?P<user>u=[^&#\s\"'<>;=]{1,64}&(?:p|pw|pwd)=)"
    r"(?P<password>[^&#\s\"'<>;]{1,256}))",
    re.IGNORECASE,
)
_HINT: Final = re.compile(
    r"[?&#;](?:" + "|".join(_NAMES) + r")=|&(?:p|pw|pwd|pass)=", re.IGNORECASE
).search
_WORDS: Final = re.compile(r"[a-z_]+|[A-Z_]+").fullmatch


def _generated(value: str) -> bool:
    if _WORDS(value) is not None or value.isdigit():
        return False
    has_digit = any(char.isdigit() for char in value)
    mixed = any(char.islower() for char in value) and any(char.isupper() for char in value)
    return has_digit or mixed


def _query_code(match: re.Match[str]) -> str:
    if match.group("user") is not None:
        password = match.group("password")
        if password.startswith("<") or (password.isdigit() and len(password) <= 3):
            return match.group(0)  # a page number, not a password
        return match.group("user") + _SECRET
    value = match.group(2)
    return match.group(1) + "=" + _SECRET if _generated(value) else match.group(0)


QUERY_CODES: Final = WordFamily(
    name="OAuth codes, verifiers and CAS tickets in a URL's query",
    hint=lambda shape: "=" in shape and _HINT(shape) is not None,
    pattern=_QUERY_CODE,
    replace=_query_code,
)
