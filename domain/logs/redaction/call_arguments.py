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
    "call_kind",
    "calls_code",
    "getter_result",
    "is_getter",
    "is_credential_call",
    "last_literal_of_a_setter",
    "leading_arguments",
]

_SECRET: Final = Placeholder.SECRET.value
_CALL: Final = re.compile(r"(?:(?<![\w.])|(?<=\)\.))([A-Za-z_][\w.]{0,63})\(")
_ARGUMENT: Final = re.compile(
    r"\s*(?:([\"'])([^\"'\\\n]*)\1"
    r"|((?:[fFrRbB]{1,2}([\"'])[^\"'\n]*\4|[\w.$@\-]+)"
    r"(?:\[[^\[\]()\n]{0,64}\]|\([^\[\]()\n]{0,64}\))*))\s*([,)])"
)
"""A plain argument: a quoted literal without escapes, or an expression (a name, an
attribute, a subscript or call of one level, an f-string: ``cfg["host"]``, ``get_host()``,
``f"{host}"``), up to a comma or the closing parenthesis."""
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
_SERVICE: Final = re.compile(
    r"(?:[\w.\-]+@)?[\w.\-]+(?::\d{1,5})?/[\w.\-]+|[\w.\-]+:\d{1,5}|[\w.\-]+@[\w.\-]+"
).fullmatch
"""An Oracle connect string (``db1:1521/orcl``, ``tns@alias``, ``db1:1521``) as a third
argument: names around its ``/``, ``:`` or ``@`` (a password ending in ``@`` is none)."""
_SERVICE_NAME: Final = re.compile(
    r"(?i)[\w.]*(?:dsn|tns|service|conn_?str|connect_?string)\w*"
).fullmatch
"""A third argument named as Oracle's connect string (``dsn``, ``cfg.tns_alias``): the
user and the password come first."""

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
        if argument.group(5) == ")":
            break
    return found


def _secret_arguments(name: str, arguments: list[Argument], text: str) -> list[Argument]:
    literal = [argument for argument in arguments if argument[2] and argument[1] > argument[0]]
    kind = call_kind(name)
    if kind == "login":
        if len(arguments) >= 3 and text[arguments[0][0]] == "$":
            arguments = arguments[1:]  # a PHP handle first: ldap_bind($conn, dn, password)
        return [arguments[1]] if len(arguments) >= 2 and arguments[1] in literal else []
    arguments = [
        argument for argument in arguments if argument[2] or not text[argument[0]].isdigit()
    ]  # a port between the host and the user: ssh.connect(host, 22, user, password)
    if kind == "connect" and len(arguments) >= 3:
        second, third = arguments[1], arguments[2]
        service = _SERVICE if third in literal else _SERVICE_NAME
        if service(text[third[0] : third[1]]) is not None:
            shaped = second in literal and password_shaped(text[second[0] : second[1]])
            return [second] if shaped else []
        return [third] if third in literal else []
    return []


_AUTH_TUPLE: Final = re.compile(r"(?i)(?<![\w.])(?:basic_?)?(?:auth|credentials?|creds)\s*=\s*\(")
"""A user and a password given as a tuple (``auth=('bob', '…')``, ``requests``' idiom): read
as a login call's arguments."""


def _calls(text: str) -> list[tuple[str, int]]:
    """Each call's name (its last part, lower case) and where its arguments start, in order."""
    found = [(call.group(1), call.start(), call.end()) for call in _CALL.finditer(text)]
    if "=" in text:
        found.extend(("login", m.start(), m.end()) for m in _AUTH_TUPLE.finditer(text))
        found.sort(key=lambda call: call[1])
    return [
        (name.rsplit(".", 1)[-1].lower(), end) for name, _, end in found if is_credential_call(name)
    ]


def _positional(text: str) -> str:
    pieces: list[str] = []
    position = 0
    for name, opened in _calls(text):
        if opened <= position:
            continue
        for start, end, _ in _secret_arguments(name, leading_arguments(text, opened), text):
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


_CODE_NAME: Final = re.compile(r"[A-Za-z_][\w.]{2,63}").fullmatch
_CODE_ARGUMENTS: Final = re.compile(r"\((?:[\"')]|[A-Za-z_][A-Za-z_.]{0,30}[,)])").match


def calls_code(text: str, value: str, end: int) -> bool:
    """True when the value of a credential key, at ``end`` followed by ``(``, is a call in
    code (``token = fetch_token("orders-api")``, ``pw = getpass("Password: ")``,
    ``secret = vault.read(path)``): the call gives the credential, its text holds none. A
    password holding ``(`` (``Xy9(kL2!``) has no such name and arguments, nor has a key of
    hex or mixed digits glued to a bracket (``a3aad557…dda7("``): a name in code holds at most
    three digits (``b64decode``, ``sha256``)."""
    if sum(letter.isdigit() for letter in value) > 3:
        return False
    return _CODE_NAME(value) is not None and _CODE_ARGUMENTS(text, end) is not None


_GETTER: Final = re.compile(
    r"(?:get|fetch|read|load|lookup|look_up|retrieve|find|resolve|has|exists|delete|remove"
    r"|del|drop|describe|list|getpass)(?=_|[A-Z]|$)|(?:get|fetch|read|load|lookup)"
    r"(?=pass|pwd|secret|token|key|cred|auth)",
    re.IGNORECASE,
).match
_GETTER_NOUN: Final = re.compile(r"[A-Z][a-z]|_|pass|pwd|secret|token|key|cred|auth").match
_RESULT: Final = re.compile(
    r"[^()\n]{0,200}?\)\s*(?:->|=>|==|=|:|returned|returns|gave|yields)\s*"
    r"(?:([\"'])([^\"'\n]+)\1|([^\s\"',;)]+))"
)


def is_getter(name: str) -> bool:
    """True for a call that looks a credential up by its name (``get_password``,
    ``getSecret``, ``keyring.get_password``, ``fetch_token``, ``delete_api_key``,
    ``getpass``): its arguments are names, prompts and paths, not secrets."""
    last = name.rsplit(".", 1)[-1]
    verb = _GETTER(last)
    if verb is None:
        return False
    rest = last[verb.end() :]
    return not rest or _GETTER_NOUN(rest) is not None


def getter_result(text: str, start: int) -> tuple[int, int] | None:
    """Where the value a getter call (its arguments starting at ``start``) is shown to
    return stands (``get_password("smtp") returned "…"``, ``-> '…'``), else None; a bare
    word there goes only when shaped like a password and holding a digit (``returned None``
    stays)."""
    found = _RESULT.match(text, start)
    if found is None:
        return None
    if found.group(2) is not None:
        return found.start(2), found.end(2)
    word = found.group(3)
    if not password_shaped(word) or not any(char.isdigit() for char in word):
        return None
    return found.start(3), found.end(3)


def call_kind(name: str) -> str | None:
    """``login`` for a call taking a user and a password, ``connect`` for one taking a host,
    a user and a password, by the last part of its name: listed, or ending in a login or
    connect word (``ftp_login``, ``ldap_bind``, ``auth_password``, ``mysqli_connect``,
    ``getConnection``); ``disconnect`` takes none."""
    last = name.rsplit(".", 1)[-1].lower()
    if last in _LOGIN_CALLS:
        return "login"
    if last in _CONNECT_CALLS:
        return "connect"
    joined = last.replace("_", "")
    if joined.endswith(_LOGIN_ENDS):
        return "login"
    if joined.endswith(_CONNECT_ENDS) and not joined.startswith("dis"):
        return "connect"
    return None


_LOGIN_ENDS: Final = ("login", "logon", "signin", "bind", "authpassword", "authenticate")
_CONNECT_ENDS: Final = ("connect", "connection", "pdo")


def is_credential_call(name: str) -> bool:
    """True for the name of a call that takes a password by position (its last part)."""
    return call_kind(name) is not None


_TUPLE_KEYS: Final = frozenset({"auth", "basic_auth", "basicauth", "credentials", "creds"})
"""Keys of a ``key=value`` word whose value may be a tuple of a user and a password (the
word's key is gated apart from its value)."""


def _gate(shape: str) -> bool:
    if "(" not in shape:
        return shape.lower() in _TUPLE_KEYS
    if "=(" in shape and _AUTH_TUPLE.search(shape) is not None:
        return True
    return any(is_credential_call(name) for name in _NAMES(shape))


_NAMES: Final = re.compile(r"(\w+)\(").findall
"""The names right before a word's ``(`` (``auth=HTTPBasicAuth(`` → ``HTTPBasicAuth``,
``smtplib.SMTP('mail').login(`` → ``SMTP``, ``login``)."""


POSITIONAL_CREDENTIALS: Final = TextFamily(
    name="passwords passed by position to login and connect calls",
    gate=_gate,
    probe=lambda lowered: "(" in lowered,
    apply=_positional,
)
"""Gated on the call's own word (``ftp.login("deploy",``): the text runs only with one."""
