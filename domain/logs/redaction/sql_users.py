"""Passwords in the statements that create or change a database user: MySQL's and MariaDB's
``IDENTIFIED BY '…'``, ``IDENTIFIED WITH plugin BY '…'``, ``SET PASSWORD [FOR u] = '…'`` and
``= PASSWORD('…')``; PostgreSQL's ``[WITH] [ENCRYPTED] PASSWORD '…'``; Oracle's unquoted
``IDENTIFIED BY word`` after ``CREATE``/``ALTER USER``; SQL Server's ``WITH PASSWORD = N'…'``.

The literal goes, quotes kept; ``PASSWORD NULL``, a placeholder or a bind parameter (``?``,
``%s``, ``:pw``) is no literal and stays.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import password_shaped, replaced_value
from factledger.domain.logs.redaction.family import TextFamily

__all__ = ["SQL_USERS"]

_QUOTED: Final = r"'(?:[^'\\\n]|\\.|'')*'|\"(?:[^\"\\\n]|\\.)*\""
_STATEMENT: Final = re.compile(
    r"(?i)(?P<lead>\bidentified[ \t]+(?:with[ \t]+[\w'\"]+[ \t]+)?(?:by|as)[ \t]+"
    r"(?:password[ \t]*)?)(?P<value>" + _QUOTED + r"|(?![?:%<])[^\s;,'\"()]+)"
    r"|(?P<plead>(?:\bset[ \t]+password[ \t]+for[ \t]+\S+[ \t]*=[ \t]*"
    r"|\bpassword[ \t]*(?:=[ \t]*)?)(?:password[ \t]*\([ \t]*)?)"
    r"(?P<pvalue>N?(?:" + _QUOTED + r"))"
)


def _statement(match: re.Match[str]) -> str:
    if match.group("lead") is not None:
        value = match.group("value")
        if value[:1] not in "'\"" and not _names_a_user(match, value):
            return match.group(0)  # prose (``request identified by id 42``)
        return match.group("lead") + replaced_value(value)
    value = match.group("pvalue")
    national = int(value[:1] == "N")
    return match.group("plead") + value[:national] + replaced_value(value[national:])


_USER_STATEMENT: Final = re.compile(r"(?i)\b(?:create|alter)[ \t]+(?:user|role|login)\b").search
"""What must come before an unquoted ``IDENTIFIED BY word`` for the word to be a password."""
_USER_BEFORE: Final = re.compile(r"(?i)\b(?:user|role|login)[ \t]+\S+[ \t]+\Z").search
"""``user etl `` right before ``identified``: a password-shaped word after it is one."""


def _names_a_user(match: re.Match[str], value: str) -> bool:
    text, start = match.string, match.start()
    if _USER_STATEMENT(text, 0, start) is not None:
        return True
    return password_shaped(value) and _USER_BEFORE(text, 0, start) is not None


def _gate(shape: str) -> bool:
    if shape[:1] not in "iIpP":
        return False
    lowered = shape.lower()
    return lowered == "identified" or lowered.startswith("password")


SQL_USERS: Final = TextFamily(
    name="passwords in statements that create or change a database user",
    gate=_gate,
    probe=lambda lowered: "identified" in lowered or "password" in lowered,
    apply=lambda text: _STATEMENT.sub(_statement, text),
    after_key=False,
)
