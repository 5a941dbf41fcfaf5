"""Credentials of mail and directory protocols sent inline: SMTP's and POP3's ``AUTH PLAIN
<base64>``, ``AUTH LOGIN <base64>``, ``AUTH XOAUTH2 …`` and IMAP's ``a001 AUTHENTICATE PLAIN
…``, also as a client library logs them, inside a quoted or bytes repr (``send: b'AUTH PLAIN
AGFsaWNl…\\r\\n'``), after an escaped line break (``\\r\\nAUTH PLAIN …``), with both the user
name and the password on the line (``AUTH LOGIN <user> <password>``), and the answers to a
server's ``334`` prompts for them in a logged dialogue.

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
_BASE64: Final = r"[A-Za-z0-9+/]{4,}={0,2}(?![A-Za-z0-9+/=])"
_AUTH: Final = re.compile(
    r"(?i)(?:(?<![a-z0-9])|(?<=\\[nr]))"
    r"(?P<command>auth(?:enticate)?[ \t]+(?:" + _MECHANISMS + r")[ \t]+)"
    r"(?P<value>" + _BASE64 + r")(?:(?P<space>[ \t]+)(?P<second>" + _BASE64 + r"))?"
)
_PROMPTED: Final = re.compile(
    r"(?P<prompt>334[ \t]+(?:UGFzc3dvcmQ6|VXNlcm5hbWU6|cGFzc3dvcmQ6|dXNlcm5hbWU6)"
    r"(?:[ \t\r\n]|\\[rn]|[<>:CS]){1,12})(?P<value>" + _BASE64 + r")"
)
"""The answer to a server's ``334`` prompt for a user name or a password (base64 of
``Username:`` and ``Password:``), on the next line of a logged dialogue."""


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
    second = match.group("second")
    if second is None or not _base64_shaped(second):
        return (
            match.group("command") + _SECRET + match.group(0)[match.end("value") - match.start() :]
        )
    return match.group("command") + _SECRET + match.group("space") + _SECRET


def _prompted(match: re.Match[str]) -> str:
    if not _base64_shaped(match.group("value")):
        return match.group(0)
    return match.group("prompt") + _SECRET


def _apply(text: str) -> str:
    text = _AUTH.sub(_auth, text)
    return _PROMPTED.sub(_prompted, text) if "334" in text else text


def _gate(shape: str) -> bool:
    lowered = shape.lower()
    if lowered.endswith("auth") or lowered.endswith("authenticate"):
        return True
    return "dvcmq0" in lowered or "bwu0" in lowered  # a prompt's shape: its digits are 0


MAIL_AUTH: Final = TextFamily(
    name="mail protocol AUTH commands",
    gate=_gate,
    probe=lambda lowered: "auth" in lowered or "334" in lowered,
    apply=_apply,
    after_key=False,
)
