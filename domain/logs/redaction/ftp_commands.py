"""The password of FTP's ``user`` command: ``user NAME PASSWORD`` as a line of an ``ftp -n``
script (a here-document, ``lftp -e "user …; ls"``) or after a client's prompt (``ftp>``,
``--->``).

The command starts its line (after optional spaces and a prompt) or follows ``;`` or a quote,
and its second argument ends the line or the command. After a prompt the argument goes
whatever its shape, as the ``PASS`` command's does; elsewhere when quoted or shaped like a
password (``guest99`` goes; ``user alice failed``, ``user 1001 1001``, ``User bob Disabled``
and a path stay). One argument (``user alice``) is a name, not a password.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import password_shaped
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.value_shapes import is_stand_in

__all__ = ["FTP_USER_COMMANDS"]

_SECRET: Final = Placeholder.SECRET.value
_COMMAND: Final = re.compile(
    r"(?im)(?P<head>(?:^|(?<=[;\"']))[ \t]*(?P<prompt>(?:ftp>|-->|--->)[ \t]*)?user[ \t]+"
    r"[\w.@\\\-]+[ \t]+)(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s;\"']+)(?=[ \t]*(?:$|;|\"|'))"
)
_PLAIN_WORD: Final = re.compile(r"[A-Z]?[a-z]+").fullmatch
_LETTERS_AND_DIGITS: Final = re.compile(r"(?=\S*[A-Za-z])(?=\S*\d)\S+").fullmatch


def _secret_shaped(bare: str) -> bool:
    """Shaped like a password: two kinds of characters, a lower-case word with a digit
    (``guest99``) included; never a plain word, a number or a path."""
    if bare[:1] in "/~." or "/" in bare or "\\" in bare:
        return False
    if _LETTERS_AND_DIGITS(bare) is not None:
        return True
    return password_shaped(bare) and _PLAIN_WORD(bare) is None


def _command(match: re.Match[str]) -> str:
    value = match.group("value")
    quoted = value[:1] in "\"'"
    bare = value[1:-1] if quoted else value
    if not bare or is_stand_in(bare) or bare.startswith("<"):
        return match.group(0)
    prompted = match.group("prompt") is not None
    if not (quoted or prompted or _secret_shaped(bare)):
        return match.group(0)
    replaced = value[0] + _SECRET + value[0] if quoted else _SECRET
    return match.group("head") + replaced


FTP_USER_COMMANDS: Final = TextFamily(
    name="the password of FTP's user command",
    gate=lambda shape: shape.lower().lstrip("\"';") == "user",
    probe=lambda lowered: "user " in lowered or "user\t" in lowered,
    apply=lambda text: _COMMAND.sub(_command, text),
)
