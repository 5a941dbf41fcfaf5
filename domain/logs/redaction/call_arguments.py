"""Credentials passed by position to a call that takes them, as code and its logs print it.

* **Login calls**: ``smtp.login("ops@example.org", "…")``, ``ftp.login('deploy', '…')``,
  ``conn.simple_bind_s("cn=admin,dc=example,dc=org", "…")``, ``client.authenticate(user,
  "…")``, ``HTTPBasicAuth("svc", "…")``, ``pika.PlainCredentials("app", "…")``: the call
  takes a user and a password, so its second argument goes when it is a literal.
* **Connect calls**: ``pymysql.connect("db1", "app", "…", "shop")``, ``ftplib.FTP("ftp1",
  "deploy", "…")``: host, user, password, so the third argument goes; in Oracle's order
  (``cx_Oracle.connect("scott", "…", "db1:1521/orcl")``, a third that names a service) the
  second goes when it is shaped like a password.
* **Setter calls with a name** (``set_password("bob", "…")``, ``vault.put_secret("db/main",
  "…")``): a call named after a credential whose leading arguments are literals keeps the
  first ones (a user, a path) and replaces the last (``credential_nouns.SETTER_CALLS`` reads
  the first argument of a call with one).

Arguments are read only while they are plain: a quoted literal without escapes or a bare
name, up to a comma or the closing parenthesis; anything nested ends the reading there.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import password_shaped
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = [
    "POSITIONAL_CREDENTIALS",
    "is_credential_call",
    "last_literal_of_a_setter",
    "leading_arguments",
]

_SECRET: Final = Placeholder.SECRET.value
_CALL: Final = re.compile(r"(?<![\w.])([A-Za-z_][\w.]{0,63})\(")
_ARGUMENT: Final = re.compile(r"\s*(?:([\"'])([^\"'\\\n]*)\1|([\w.$@\-]+))\s*([,)])")
_MOST: Final = 6

_LOGIN_CALLS: Final = frozenset(
    {"login", "log_in", "logon", "signin", "sign_in", "authenticate", "auth", "bind"}
    | {"simple_bind", "simple_bind_s", "bind_s", "basic_auth", "httpbasicauth"}
    | {"httpdigestauth", "plaincredentials", "networkcredential", "set_credentials"}
    | {"setcredentials", "usernamepasswordcredentials", "passwordcredential", "starttls_login"}
)
"""Call names (the last dotted part, in lower case) whose arguments are a user and a password."""
_CONNECT_CALLS: Final = frozenset({"connect", "connection", "ftp", "ftp_tls", "imap4", "imap4_ssl"})
"""Call names whose arguments start with a host, a user and a password (DB-API drivers,
ftplib); Oracle's ``connect`` starts with the user."""
_SERVICE: Final = re.compile(r"[^\s]*[/:@][^\s]*").fullmatch
"""An Oracle connect string (``db1:1521/orcl``, ``tns@alias``) as a third argument."""

Argument = tuple[int, int, bool]
"""Where an argument's value starts and ends in the text, and whether it is a literal."""


def leading_arguments(text: str, start: int) -> list[Argument]:
    """The plain leading arguments of the call whose ``(`` ends at ``start``."""
    found: list[Argument] = []
    position = start
    while len(found) < _MOST and (argument := _ARGUMENT.match(text, position)) is not None:
        if argument.group(1) is not None:
            found.append((argument.start(2), argument.end(2), True))
        else:
            found.append((argument.start(3), argument.end(3), False))
        position = argument.end()
        if argument.group(4) == ")":
            break
    return found


def _secret_arguments(name: str, arguments: list[Argument], text: str) -> list[Argument]:
    literal = [argument for argument in arguments if argument[2] and argument[1] > argument[0]]
    if name in _LOGIN_CALLS:
        return [arguments[1]] if len(arguments) >= 2 and arguments[1] in literal else []
    if name in _CONNECT_CALLS and len(arguments) >= 3:
        second, third = arguments[1], arguments[2]
        if third in literal and _SERVICE(text[third[0] : third[1]]) is not None:
            shaped = second in literal and password_shaped(text[second[0] : second[1]])
            return [second] if shaped else []
        return [third] if third in literal else []
    return []


def _positional(text: str) -> str:
    pieces: list[str] = []
    position = 0
    for call in _CALL.finditer(text):
        if call.start() < position:
            continue
        if not is_credential_call(call.group(1)):
            continue
        name = call.group(1).rsplit(".", 1)[-1].lower()
        for start, end, _ in _secret_arguments(name, leading_arguments(text, call.end()), text):
            pieces.append(text[position:start] + _SECRET)
            position = end
    if not pieces:
        return text
    return "".join(pieces) + text[position:]


def last_literal_of_a_setter(text: str, start: int) -> tuple[int, int] | None:
    """Where the value of a credential setter called with a name and a value stands (its
    last leading literal, when it has two or more and they are all literals), else None."""
    arguments = leading_arguments(text, start)
    if len(arguments) < 2 or not all(literal for _, _, literal in arguments):
        return None
    value_start, value_end, _ = arguments[-1]
    return value_start, value_end


def is_credential_call(name: str) -> bool:
    """True for the name of a call that takes a password by position (its last part)."""
    last = name.rsplit(".", 1)[-1].lower()
    return last in _LOGIN_CALLS or last in _CONNECT_CALLS


def _gate(shape: str) -> bool:
    if "(" not in shape:
        return False
    name = _LAST_NAME(shape.partition("(")[0])
    return name is not None and is_credential_call(name.group(0))


_LAST_NAME: Final = re.compile(r"\w+\Z").search
"""The name right before a call's ``(`` (``auth=HTTPBasicAuth(`` → ``HTTPBasicAuth``)."""


POSITIONAL_CREDENTIALS: Final = TextFamily(
    name="passwords passed by position to login and connect calls",
    gate=_gate,
    probe=lambda lowered: "(" in lowered,
    apply=_positional,
)
"""Gated on the call's own word (``ftp.login("deploy",``): the text runs only with one."""
