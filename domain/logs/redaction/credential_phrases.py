"""Credentials written as words rather than ``key=value``: short command-line flags
(``-p``, ``-w``, ``redis-cli -a``), netrc lines (``machine … login … password …``), phrases
(``password to '…'``, ``password is …``, ``joined with psk …``, ``pre-shared key is …``),
the ``PASS`` command of FTP and POP3 (not a test runner's ``PASS``) and card verification
codes (``CVC 123``, ``card_verification_code=123``, ``card verification value: 123``).

A flag's or phrase's value is replaced when it is quoted or shaped like a password (two kinds
of characters among lower case, upper case, digits and symbols); a port, a path, a number or a
plain word stays (``ssh -p 2222``, ``mkdir -p /var/lib``, ``password expired``). A netrc
``password`` and a card code are replaced whatever their shape.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.value_shapes import is_stand_in

__all__ = ["CARD_CODES", "NETRC_AND_PHRASES", "SHORT_FLAGS", "password_shaped", "replaced_value"]

_SECRET: Final = Placeholder.SECRET.value
_VALUE: Final = r"'[^'\n]*'|\"[^\"\n]*\"|[^\s\"'<]\S*"
_SHORT_FLAG: Final = re.compile(r"(?<!\S)(-[pwa])([ \t]+)(" + _VALUE + r")")
_KEEP_SHAPE: Final = re.compile(
    r"[\d:,.\-]+|%\{[a-z_]+\}.*|[~./].*|[a-z][a-z0-9_\-]*|<[A-Z_]+>.*"
).fullmatch


def password_shaped(value: str) -> bool:
    """True when a bare value mixes two kinds of characters (never a port, path or word)."""
    if _KEEP_SHAPE(value) is not None:
        return False
    kinds = (
        any(c.islower() for c in value)
        + any(c.isupper() for c in value)
        + any(c.isdigit() for c in value)
        + any(not c.isalnum() for c in value)
    )
    return kinds >= 2


def _quoted(value: str) -> bool:
    return len(value) >= 2 and value[0] in "'\"" and value[-1] == value[0]


def replaced_value(value: str) -> str:
    """A value made ``<SECRET>``, inside its quotes when it is quoted."""
    if _quoted(value):
        return value[0] + _SECRET + value[0] if len(value) > 2 else value
    return _SECRET


def _short_flag(match: re.Match[str]) -> str:
    flag, space, value = match.group(1), match.group(2), match.group(3)
    if flag == "-a" and "redis-cli" not in match.string and "redis" not in match.string.lower():
        return match.group(0)
    if value[:1] == "-":
        return match.group(0)  # another flag (``ssh-keygen -p -P …``), not this one's value
    if is_stand_in(value.strip("'\"")):
        return match.group(0)
    if _quoted(value) or password_shaped(value.rstrip(",;")):
        return flag + space + replaced_value(value)
    return match.group(0)


def _short_flags(text: str) -> str:
    return _SHORT_FLAG.sub(_short_flag, text)


SHORT_FLAGS: Final = TextFamily(
    name="short command-line password flags",
    gate=lambda shape: shape in ("-p", "-w", "-a"),
    probe=lambda lowered: "-p " in lowered or "-w " in lowered or "-a " in lowered,
    apply=_short_flags,
)

_CONNECTOR: Final = r"(?:is|was|to|=|:|(?:set|changed|reset|updated)\s+to)"
_PHRASE: Final = re.compile(
    r"(?i)\b(pass(?:word|wd|phrase)?|pwd|passcode|psk|pre-?shared[ \t]+key)"
    r"(\s+(?:for|of)\s+(?:(?:the\s+)?(?:user|account|login|service)\s+)?"
    r"(?:[\w.@\-]+?|'[^'\n]{1,120}'|\"[^\"\n]{1,120}\")"
    r"(?::\s*|\s+" + _CONNECTOR + r"\s+)"
    r"|\s+(?:(?:is|was|to|of|=|:)\s+|(?:set|changed|reset|updated)\s+to\s+)?)"
    r"(" + _VALUE + r")"
)
_NETRC: Final = re.compile(r"(?i)\b(?:machine|login|default)\s[^\n]*\s(?:password|passwd)\s+$")


def _psk(shape: str) -> bool:
    """A Wi-Fi or VPN pre-shared key named as a word (``psk``, ``pre-shared key``)."""
    lowered = shape.lower().strip("\"':=,")
    return lowered in ("psk", "pre-shared", "preshared")


def _protocol_pass(match: re.Match[str]) -> str:
    """FTP's and POP3's ``PASS`` command: its one argument, ending the line, goes whatever
    its shape; a test runner's verdict (``PASS: TestX``, ``PASS src/a.test.js``, ``PASS 12``,
    ``PASS (3 checks)``) stays."""
    value = match.group(3)
    line_end = match.string.find("\n", match.end())
    rest = match.string[match.end() : None if line_end < 0 else line_end]
    if match.group(2).strip() or rest.strip() or value.isdigit() or value[:1] in "(<[":
        return match.group(0)
    if "/" in value or "\\" in value:
        return match.group(0)
    return match.group(1) + match.group(2) + replaced_value(value)


def _phrase(match: re.Match[str]) -> str:
    noun, between, value = match.group(1), match.group(2), match.group(3)
    if noun == "PASS":
        return _protocol_pass(match)
    core = value.rstrip(",;.")
    if match.start() > 0 and match.string[match.start() - 1] == "=":
        return match.group(0)  # the noun is a value (``auth_method=password mfa=totp``)
    netrc = between.strip() == "" and _NETRC.search(match.string, 0, match.start(3)) is not None
    connector = between.strip() != ""
    if value.startswith("<") or between.strip() in ("=", ":") or is_stand_in(core.strip("'\"")):
        return match.group(0)
    if _quoted(value) or netrc or (password_shaped(core) and (connector or len(core) >= 6)):
        return noun + between + replaced_value(core) + value[len(core) :]
    return match.group(0)


def _phrases(text: str) -> str:
    return _PHRASE.sub(_phrase, text)


NETRC_AND_PHRASES: Final = TextFamily(
    name="netrc lines and password phrases",
    gate=lambda shape: "pass" in shape.lower() or "pwd" in shape.lower() or _psk(shape),
    probe=lambda lowered: (
        "pass" in lowered or "pwd" in lowered or "psk" in lowered or "shared" in lowered
    ),
    apply=_phrases,
)

_CARD_CODE: Final = re.compile(
    r"(?i)\b(cvv2?|cvc2?|csc|security[ _]code|card[ _]code"
    r"|card[ _\-]?(?:verification|security)(?:[ _\-]?(?:code|value|number))?)"
    r"([\"']?\s*[:=#]?\s*[\"']?)(\d{3,4})\b"
)


_CODE_WORDS: Final = frozenset({"cvv", "cvv0", "cvc", "cvc0", "csc", "security", "verification"})


_CODE_KEY: Final = re.compile(r"(?i)card[_\-]?(?:verification|security)|security[_\-]code").search
"""A key naming a card code in words (``card_verification_code``, ``cardSecurityCode``)."""


def _code_word(shape: str) -> bool:
    lowered = shape.lower()
    if lowered.strip(":=#\"'") in _CODE_WORDS:
        return True
    return ("ecurity" in lowered or "erification" in lowered) and _CODE_KEY(lowered) is not None


def _card_codes(text: str) -> str:
    return _CARD_CODE.sub(lambda m: m.group(1) + m.group(2) + _SECRET, text)


CARD_CODES: Final = TextFamily(
    name="card verification codes",
    gate=_code_word,
    probe=lambda lowered: (
        "cv" in lowered or "csc" in lowered or "code" in lowered or "verif" in lowered
    ),
    apply=_card_codes,
)
