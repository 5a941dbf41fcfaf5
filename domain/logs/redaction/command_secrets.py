"""Passwords in the records of protocols and credential files, where no key names them.

* **Redis ``AUTH`` and ``HELLO … AUTH``** as the server logs a command (``MONITOR``, the slow
  log, the ACL log): ``"AUTH" "default" "…"``, ``AUTH …``, ``AUTH user …``. The last
  argument is the password: a quoted one always goes, an unquoted one when shaped like a
  password and holding a digit. ``AUTH`` is read in upper case only (``auth: login ok``
  stays).
* **IMAP ``LOGIN user password``** (``a001 LOGIN jdoe "…"``), upper case only, on the same
  terms (``LOGIN chdir(/p) failed:`` stays).
* **Password-file records**: ``host:port:database:user:password`` (``.pgpass``), the last
  field goes when the second is a port or ``*``.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import password_shaped
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["COMMAND_SECRETS"]

_SECRET: Final = Placeholder.SECRET.value
_AUTH: Final = re.compile(
    r"(?<![\w\-])(\"?AUTH\"?[ \t]+)((?:(?:\"[^\"\s]{1,64}\"|[\w.@\-]{1,64})[ \t]+)?)"
    r"(?:(\"(?:[^\"\\]|\\.)+\")|((?!<)[^\s\"]{6,128}(?![^\s\"])))"
)
_LOGIN: Final = re.compile(
    r"(?<![\w\-])(LOGIN[ \t]+)((?:\"[^\"\s]{1,64}\"|[\w.@\-]{1,64})[ \t]+)"
    r"(?:(\"(?:[^\"\\]|\\.)+\")|((?!<)[^\s\"]{6,128}(?![^\s\"])))"
)
_RECORD: Final = re.compile(
    r"(?<![^\s\"'])([\w.\-*]+:(?:\d{2,5}|\*):[\w.\-*]+:[\w.\-@*]+:)([^\s:\"']{4,128})(?![^\s\"'])"
)
_RECORD_SHAPE: Final = re.compile(r"[\w.\-*]+:(?:0{2,5}|\*):[\w.\-*]+:[\w.\-@*]+:\S{4,}").fullmatch


def _auth(match: re.Match[str]) -> str:
    quoted, bare = match.group(3), match.group(4)
    if quoted is not None:
        return match.group(1) + match.group(2) + '"' + _SECRET + '"'
    if not password_shaped(bare) or not any(char.isdigit() for char in bare):
        return match.group(0)
    return match.group(1) + match.group(2) + _SECRET


def _record(match: re.Match[str]) -> str:
    return match.group(1) + _SECRET


def _gate(shape: str) -> bool:
    if shape in ("AUTH", '"AUTH"', "LOGIN"):
        return True
    return shape.count(":") >= 4 and _RECORD_SHAPE(shape) is not None


def _probe(lowered: str) -> bool:
    return "auth" in lowered or "login" in lowered or lowered.count(":") >= 4


COMMAND_SECRETS: Final = TextFamily(
    name="passwords in Redis AUTH and IMAP LOGIN commands and password-file records",
    gate=_gate,
    probe=_probe,
    apply=lambda text: _RECORD.sub(_record, _LOGIN.sub(_auth, _AUTH.sub(_auth, text))),
)
