"""Credentials inside a URL that is itself percent-encoded, once or more: a redirect target
or a callback carried in a query string (``next=%2Flogin%3Fpassword%3Dx``,
``…%253Dhunter2%2526…`` encoded twice, ``%25253D`` three times), and the userinfo of such a
URL (``http%253A%252F%252Fbob%253Apw%2540host``).

Each level of encoding writes ``%`` as ``%25``, so ``=`` is ``%3D``, ``%253D``, ``%25253D`` …:
the pair's key is read as written and decides whether the value is a credential
(``secret_keys``); the value runs to the next encoded ``&``, ``#``, ``;``, ``,``, quote, space
or ``%`` itself, and a count or a duration under a key that only counts stays (``token_count``).
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import unquote

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.secret_keys import is_secret_key
from factledger.domain.logs.redaction.value_shapes import keeps_value

__all__ = ["ENCODED_QUERIES"]

_SECRET: Final = Placeholder.SECRET.value
_ESCAPE: Final = r"%(?:25)*"
"""``%`` after any number of encodings."""
_ENDS: Final = r"26|23|3[bB]|2[cC]|20|22|27|25|3[cC]|3[eE]"
"""Encoded ``& # ; , space " ' % < >``: they end a value."""
_VALUE_CHAR: Final = r"[A-Za-z0-9_.\-~+!*$]|" + _ESCAPE + r"(?!" + _ENDS + r")[0-9A-Fa-f]{2}"
_PAIR: Final = re.compile(
    r"(?P<lead>" + _ESCAPE + r"(?:3[fF]|26|3[bB]|2[cC]|20)|[?&;,\s=]|^)"
    r"(?P<key>[A-Za-z_][A-Za-z0-9_.\-]{0,40}?)(?P<eq>" + _ESCAPE + r"3[dD])"
    r"(?P<value>(?:" + _VALUE_CHAR + r")+)"
)
_USER_CHAR: Final = r"[A-Za-z0-9_.\-~+!*$]|" + _ESCAPE + r"(?!3[aA]|40|2[fF])[0-9A-Fa-f]{2}"
_USERINFO: Final = re.compile(
    r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*" + _ESCAPE + r"3[aA](?:" + _ESCAPE + r"2[fF]){2})"
    r"(?P<user>(?:" + _USER_CHAR + r")*)(?P<colon>" + _ESCAPE + r"3[aA])"
    r"(?P<password>(?:" + _USER_CHAR + r")+)(?P<at>" + _ESCAPE + r"40)"
)


def _decoded(value: str) -> str:
    for _ in range(4):
        if "%" not in value:
            break
        value = unquote(value)
    return value


def _pair(match: re.Match[str]) -> str:
    key, value = match.group("key"), match.group("value")
    if not is_secret_key(key) or keeps_value(key, _decoded(value)):
        return match.group(0)
    return match.group("lead") + key + match.group("eq") + _SECRET


def _userinfo(match: re.Match[str]) -> str:
    found = match.group
    return found("scheme") + found("user") + found("colon") + _SECRET + found("at")


def _apply(text: str) -> str:
    if "%" not in text:
        return text
    return _PAIR.sub(_pair, _USERINFO.sub(_userinfo, text))


def _gate(shape: str) -> bool:
    if "%" not in shape:
        return False
    lowered = shape.lower()
    return "0d" in lowered or "0a" in lowered


ENCODED_QUERIES: Final = TextFamily(
    name="credentials in a percent-encoded URL",
    gate=_gate,
    probe=lambda lowered: "%" in lowered and ("3d" in lowered or "3a" in lowered),
    apply=_apply,
)
"""The gate reads the shape, whose digits are ``0``: an encoded ``=`` or ``:`` is ``%0D`` or
``%0A`` there, after any number of ``00``."""
