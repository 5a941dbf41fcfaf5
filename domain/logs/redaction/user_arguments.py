"""``user:password`` given to a command after a flag that takes both: curl's ``-u``,
``--user``, ``-U``/``--proxy-user``, also quoted (``--user "deploy:…"``, ``-u 'ci:…'``) or
glued with ``=`` (``--user=deploy:…``), and the same flags of other HTTP clients
(``--http-user``, ``--auth``, ``--basic-auth``, ``--credentials``, HTTPie's ``-a``: only
after the name of an HTTP client, since ``-a`` means other things elsewhere).

The part after the first ``:`` goes. A user and a group (``docker run -u 1000:1000``, ``-u
app:app``) stay: numbers on both sides, or one word repeated, or outside an HTTP client a
plain word.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import password_shaped
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.value_shapes import is_stand_in

__all__ = ["USER_ARGUMENTS"]

_SECRET: Final = Placeholder.SECRET.value
_FLAGS: Final = frozenset(
    {"-u", "-U", "-a", "--user", "--proxy-user", "--http-user", "--auth", "--basic-auth"}
    | {"--credentials", "--creds", "--server-user", "--userpass"}
)
_ARGUMENT: Final = re.compile(
    r"(?<![\w\-])(?P<flag>-[uUa]|--user|--proxy-user|--http-user|--auth|--basic-auth"
    r"|--credentials|--creds|--server-user|--userpass)(?P<sep>=|[ \t]+)"
    r"(?:(?P<quote>[\"'])(?P<user>[^:\"'\n]*):(?P<password>[^\"'\n]+)(?P=quote)"
    r"|(?P<bare_user>[^\s:\"']*):(?:(?P<inner>[\"'])(?P<quoted>[^\"'\n]+)(?P=inner)"
    r"|(?P<bare>[^\s\"']+)))(?![^\s\"'])"
)
_CLIENTS: Final = re.compile(r"(?i)\b(?:curl|wget|http|https|httpie|xh|ab|hey|wrk|lftp)\b").search


def _argument(match: re.Match[str]) -> str:
    group = next(name for name in ("password", "quoted", "bare") if match.group(name) is not None)
    user, password = match.group("user") or match.group("bare_user"), match.group(group)
    if password.startswith("<") or is_stand_in(password):
        return match.group(0)
    if (user.isdigit() and password.isdigit()) or user == password:
        return match.group(0)
    plain = group == "bare" and not password_shaped(password)
    if (plain or match.group("flag") == "-a") and _CLIENTS(match.string, 0, match.start()) is None:
        return match.group(0)
    begin, end = match.start(group) - match.start(), match.end(group) - match.start()
    return match.group(0)[:begin] + _SECRET + match.group(0)[end:]


USER_ARGUMENTS: Final = TextFamily(
    name="user:password after a command's user flag",
    gate=lambda shape: shape.split("=", 1)[0] in _FLAGS,
    probe=lambda lowered: ":" in lowered,
    apply=lambda text: _ARGUMENT.sub(_argument, text),
)
