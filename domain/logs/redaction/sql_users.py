"""Passwords in the statements that create or change a database user: MySQL's and MariaDB's
``IDENTIFIED BY '…'``, ``IDENTIFIED WITH plugin BY '…'``, ``SET PASSWORD [FOR u] = '…'`` and
``= PASSWORD('…')``; PostgreSQL's ``[WITH] [ENCRYPTED] PASSWORD '…'``; Oracle's unquoted
``IDENTIFIED BY word``.

The literal goes, quotes kept; ``PASSWORD NULL``, a placeholder or a bind parameter (``?``,
``%s``, ``:pw``) is no literal and stays.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import replaced_value
from factledger.domain.logs.redaction.family import TextFamily

__all__ = ["SQL_USERS"]

_QUOTED: Final = r"'(?:[^'\\\n]|\\.|'')*'|\"(?:[^\"\\\n]|\\.)*\""
_STATEMENT: Final = re.compile(
    r"(?i)(?P<lead>\bidentified[ \t]+(?:with[ \t]+[\w'\"]+[ \t]+)?(?:by|as)[ \t]+"
    r"(?:password[ \t]*)?)(?P<value>" + _QUOTED + r"|(?![?:%<])[^\s;,'\"()]+)"
    r"|(?P<plead>\bpassword[ \t]*(?:=[ \t]*)?(?:password[ \t]*\([ \t]*)?)(?P<pvalue>"
    + _QUOTED
    + r")"
)


def _statement(match: re.Match[str]) -> str:
    if match.group("lead") is not None:
        return match.group("lead") + replaced_value(match.group("value"))
    return match.group("plead") + replaced_value(match.group("pvalue"))


def _gate(shape: str) -> bool:
    lowered = shape.lower()
    return lowered == "identified" or lowered.startswith("password")


SQL_USERS: Final = TextFamily(
    name="passwords in statements that create or change a database user",
    gate=_gate,
    probe=lambda lowered: "identified" in lowered or "password" in lowered,
    apply=lambda text: _STATEMENT.sub(_statement, text),
    after_key=False,
)
