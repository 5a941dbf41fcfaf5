"""Credentials of mail and directory protocols sent inline: SMTP's and POP3's ``AUTH PLAIN
<base64>``, ``AUTH LOGIN <base64>``, ``AUTH XOAUTH2 …`` and IMAP's ``a001 AUTHENTICATE PLAIN
…``, also as a client library logs them, inside a quoted or bytes repr (``send: b'AUTH PLAIN
AGFsaWNl…\\r\\n'``).

The argument goes when it has the shape of base64 (its length a multiple of four, with a
digit, mixed case or padding); a server's list of mechanisms (``250-AUTH PLAIN LOGIN``) or a
message (``AUTH LOGIN failed``) stays.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["MAIL_AUTH"]

_SECRET: Final = Placeholder.SECRET.value
_MECHANISMS: Final = (
    r"plain|login|xoauth2?|oauthbearer|cram-md5|digest-md5|scram-sha-(?:1|256)(?:-plus)?|ntlm"
)
_AUTH: Final = re.compile(
    r"(?i)(?<![a-z0-9])(?P<command>auth(?:enticate)?[ \t]+(?:" + _MECHANISMS + r")[ \t]+)"
    r"(?P<value>[A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])"
)


def _base64_shaped(value: str) -> bool:
    if len(value) % 4:
        return False
    body = value.rstrip("=")
    return (
        body != value
        or any(char.isdigit() for char in body)
        or (body.lower() != body and body.upper() != body)
    )


def _auth(match: re.Match[str]) -> str:
    if not _base64_shaped(match.group("value")):
        return match.group(0)
    return match.group("command") + _SECRET


def _gate(shape: str) -> bool:
    lowered = shape.lower()
    return lowered.endswith("auth") or lowered.endswith("authenticate")


MAIL_AUTH: Final = TextFamily(
    name="mail protocol AUTH commands",
    gate=_gate,
    probe=lambda lowered: "auth" in lowered,
    apply=lambda text: _AUTH.sub(_auth, text),
    after_key=False,
)
