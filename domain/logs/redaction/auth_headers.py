"""Authorization headers and schemes: the credentials go, the scheme word stays.

``Authorization: Bearer …``, ``authorization=SSWS …``, ``"Proxy-Authorization": "Negotiate
…"``: whatever the header's spelling, case or separator, and whether the scheme is a listed
one or not (``SSWS``, ``GenieKey``, ``Bot``), the credentials after the scheme are replaced
and the scheme word is kept, so a reader still sees how the caller authenticated. A
``Bearer …`` (or a ``Basic``/``Token`` before credential-shaped text) is found anywhere.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction import patterns
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["is_auth_scheme", "keeps_scheme", "redact_authorization", "scheme_kept", "scheme_word"]

_AUTH_SCHEMES: Final = frozenset(
    {"bearer", "basic", "digest", "token", "negotiate", "ntlm", "apikey", "hmac", "sso-key"}
)
_SCHEME_WORDS: Final = ("bearer", "basic", "token", "apikey", "api-key")
_SECRET: Final = Placeholder.SECRET.value
_SCHEME_SHAPE: Final = re.compile(r"[A-Za-z][A-Za-z0-9\-]{1,30}").fullmatch
_SCHEME_WORD: Final = re.compile(r"[A-Za-z][A-Za-z\-]{1,30}").fullmatch
_REDACTED_AFTER: Final = re.compile(r"[ \t]+<[A-Z_]{2,12}>").match
_QUOTED_SCHEME: Final = re.compile(r"(\\?[\"'])[A-Za-z][A-Za-z0-9\-]{1,30}[ \t]+<[A-Z_]{2,12}>\1")


def redact_authorization(text: str, lowered: str) -> str:
    """The credentials of every Authorization header and scheme of a text."""
    if "authorization" in lowered:
        text = patterns.AUTH_HEADER_QUOTED.sub(_auth_quoted, text)
        text = patterns.AUTH_HEADER_UNQUOTED.sub(_auth_unquoted, text)
    if any(word in lowered for word in _SCHEME_WORDS):
        text = patterns.AUTH_SCHEME.sub(_auth_scheme, text)
    return text


def is_auth_scheme(word: str) -> bool:
    """True for a listed scheme word (``bearer``, ``Basic``, ``NTLM``, …)."""
    return word.lower() in _AUTH_SCHEMES


def keeps_scheme(key: str, value: str, text: str, end: int) -> bool:
    """True when the value of an Authorization key is the scheme word before credentials
    already replaced (``Authorization: SSWS <SECRET>``, ``"authorization": "Bot <SECRET>"``)."""
    if not key.strip("\"'\\").lower().endswith("authorization"):
        return False
    if _SCHEME_SHAPE(value) is not None:
        return _REDACTED_AFTER(text, end) is not None
    return _QUOTED_SCHEME.fullmatch(value) is not None


def scheme_word(key: str, value: str) -> bool:
    """True when the value of an Authorization key (``Authorization=SSWS``) is a word of
    letters that may be a scheme before credentials in the next word: only the line can tell."""
    return key.strip("\"'\\:=-").lower().endswith("authorization") and (
        _SCHEME_WORD(value) is not None
    )


_SCHEME_AND_REST: Final = re.compile(r"([A-Za-z][A-Za-z0-9\-]{1,30})([ \t]+)(\S.*)", re.S).fullmatch
_PLACEHOLDER: Final = re.compile(r"<[A-Z_]{2,12}>").fullmatch


def scheme_kept(key: str, value: str) -> str | None:
    """The value of an Authorization key written ``scheme credentials`` with the scheme
    kept and the credentials replaced (already replaced ones stay); None for any other."""
    if not key.strip("\"'\\:=-").lower().endswith("authorization"):
        return None
    found = _SCHEME_AND_REST(value)
    if found is None:
        return None
    rest = found.group(3) if _PLACEHOLDER(found.group(3)) is not None else _SECRET
    return found.group(1) + found.group(2) + rest


def _auth_quoted(match: re.Match[str]) -> str:
    scheme = match.group(3) or ""
    if not match.group(4):
        return match.group(0)
    return match.group(1) + match.group(2) + scheme + _SECRET + match.group(5)


def _auth_unquoted(match: re.Match[str]) -> str:
    credentials = match.group(3)
    if credentials.startswith("<"):
        return match.group(0)
    if credentials.lower().startswith("digest"):
        return match.group(1) + "Digest " + _SECRET
    return match.group(1) + (match.group(2) or "") + _SECRET


def _auth_scheme(match: re.Match[str]) -> str:
    scheme, space, credentials = match.group(1), match.group(2), match.group(3)
    if scheme.lower() != "bearer" and not _credential_shaped(credentials):
        return match.group(0)
    return scheme + space + _SECRET


def _credential_shaped(word: str) -> bool:
    has_digit = any(char.isdigit() for char in word)
    has_upper = any(char.isupper() for char in word)
    has_lower = any(char.islower() for char in word)
    return has_digit or word.endswith("=") or (has_upper and has_lower and len(word) >= 12)
