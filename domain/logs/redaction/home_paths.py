"""User names in home directories: ``/home/<USER>``, ``/Users/<USER>``, ``C:\\Users\\<USER>``
(also with ``/`` or escaped ``\\\\``), ``~<USER>``, a Windows drive mounted elsewhere
(``/mnt/c/Users/<USER>``, ``/cygdrive/c/Users/<USER>``) and shares of home folders
(``\\\\fs01\\home$\\<USER>``, ``\\\\fs01\\Users\\<USER>``, ``profiles``). The rest of the
path stays; shared folders (``/Users/Shared``, ``C:\\Users\\Public``, ``Default``, ``All
Users``) are not user names. ``C:\\Documents and Settings\\<USER>\\…`` spans words: its
user is found in the word ``Settings\\<USER>\\…`` (a folder after it, so a word
``Settings\\Display`` alone stays). A home directory reached through ``..``
(``/srv/ci/../../home/<USER>``) is one too."""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import WordFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["HOME_PATHS"]

_USER: Final = Placeholder.USER.value
_NOT_USERS: Final = frozenset({"shared", "public", "default", "all users", "default user"})
_HOME: Final = re.compile(
    r"(?P<prefix>(?:(?:(?<![\w.])|(?<=\.\.))/(?:export/|var/)?home/|(?:(?<![\w.])|(?<=\.\.))/Users/"
    r"|(?<![\w.])/(?:mnt/|cygdrive/)?[A-Za-z]/Users/"
    r"|\b[A-Za-z]:(?:\\\\|\\|/)(?i:Users|Documents and Settings)(?:\\\\|\\|/)"
    r"|(?<![\w\\])\\\\[\w.\-]+\\(?i:home|users|profiles)\$?\\"
    r"|(?<![\w\\/.])Settings\\(?=[^\\\s]+\\)))"
    r"(?P<user>[^/\\\s\"':;,*<>|]+(?:'[A-Za-z][^/\\\s\"':;,*<>|]*)*)"
    r"|(?<![\w~/.\-])~(?P<tilde>[A-Za-z_][A-Za-z0-9_.\-]*)(?=/|$|[\s\"',;:)\]])"
)


_DRIVE_USERS: Final = re.compile(r"(?i):[\\/]+(?:users|documents and)").search
"""A drive's ``Users`` folder in any case (Windows paths are case-insensitive:
``c:\\users\\…``, ``C:\\USERS\\…``)."""


def _home(match: re.Match[str]) -> str:
    tilde = match.group("tilde")
    if tilde is not None:
        return "~" + _USER
    user = match.group("user")
    if user.lower() in _NOT_USERS or user.startswith("<"):
        return match.group(0)
    return match.group("prefix") + _USER


HOME_PATHS: Final = WordFamily(
    name="home directories",
    hint=lambda shape: (
        "/home/" in shape
        or "Users" in shape
        or (":" in shape and _DRIVE_USERS(shape) is not None)
        or "~" in shape
        or "Documents and" in shape
        or shape.startswith("Settings\\")
        or "\\\\" in shape
    ),
    pattern=_HOME,
    replace=_home,
)
