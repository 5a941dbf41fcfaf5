"""Credentials in network device configurations and in a key-value server's AUTH command.

* **Device configuration clauses** (Cisco IOS and NX-OS, Junos, Arista, VyOS, as a running
  configuration or a change log shows them): a credential noun, the optional type markers
  that say how the value is written (``0``, ``7``, ``ascii-text``, ``md5``, ``hex`` …), then
  the value. Nouns only configurations use (``key-string``, ``pre-shared-key``,
  ``authentication-key``, ``message-digest-key 1 md5``, ``snmp-server community``,
  ``tacacs-server key``, ``crypto isakmp key``) take any value; the common nouns
  (``password``, ``secret``, ``key``) only with a type marker before a password-shaped value
  (``username admin password 0 …``, ``enable secret 5 $1$…``), so ``password 3 times``
  stays.
* **AUTH of Redis and its kin** (``AUTH …``, ``AUTH user …`` at the start of a line or after
  a client's prompt ``127.0.0.1:6379>``): the last argument, when it is the end of the line;
  a lower-case ``auth`` only before a password-shaped value (``auth failed`` stays).
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import password_shaped, replaced_value
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.value_shapes import is_stand_in

__all__ = ["DEVICE_CONFIGS", "is_type_marker"]

_MARKER: Final = r"(?:[0-9]|ascii-text|ascii|hex|md5|sha1|sha256|plain-text|cleartext|encrypted)"
_IS_MARKER: Final = re.compile(_MARKER).fullmatch
_VALUE: Final = r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s;\"']+)"
_SPECIFIC: Final = (
    r"key-string|pre-shared-key|authentication-key|message-digest-key[ \t]+\d+|wpa-psk"
    r"|snmp-server[ \t]+community|snmp[ \t]+community|(?:tacacs|radius)(?:-server)?"
    r"(?:[ \t]+host[ \t]+\S+)?[ \t]+key|isakmp[ \t]+key|server-private[ \t]+\S+[ \t]+key"
)
_CLAUSE: Final = re.compile(
    r"(?im)(?<![\w\-])(?:(?P<specific>" + _SPECIFIC + r")(?:[ \t]+" + _MARKER + r")*"
    r"|(?P<common>password|secret|key|passphrase)(?:[ \t]+" + _MARKER + r")+)"
    r"[ \t]+" + _VALUE
)
_AUTH: Final = re.compile(
    r"(?m)(?:^[ \t]*|[>$#][ \t]+)(?P<verb>AUTH|auth)[ \t]+(?:[^\s\"']+[ \t]+)?"
    + _VALUE
    + r"[ \t]*$"
)


def is_type_marker(word: str) -> bool:
    """True for a word that says how the next value is written (``0``, ``7``, ``ascii-text``)."""
    return _IS_MARKER(word) is not None


def _clause(match: re.Match[str]) -> str:
    value = match.group("value")
    bare = value.strip("\"'")
    if not bare or bare.startswith("<") or is_stand_in(bare):
        return match.group(0)
    if match.group("common") is not None and not password_shaped(bare):
        return match.group(0)
    start = match.start("value") - match.start()
    return match.group(0)[:start] + replaced_value(value)


def _auth(match: re.Match[str]) -> str:
    value = match.group("value")
    bare = value.strip("\"'")
    if not bare or bare.startswith("<") or is_stand_in(bare):
        return match.group(0)
    if match.group("verb") == "auth" and not password_shaped(bare):
        return match.group(0)
    start = match.start("value") - match.start()
    return (
        match.group(0)[:start]
        + replaced_value(value)
        + match.group(0)[match.end("value") - match.start() :]
    )


def _apply(text: str) -> str:
    text = _CLAUSE.sub(_clause, text)
    return _AUTH.sub(_auth, text) if "auth" in text.lower() else text


_GATE_WORDS: Final = frozenset(
    {
        "key-string",
        "pre-shared-key",
        "authentication-key",
        "message-digest-key",
        "wpa-psk",
        "community",
        "key",
        "password",
        "secret",
        "passphrase",
        "auth",
    }
)


DEVICE_CONFIGS: Final = TextFamily(
    name="credentials in device configuration clauses and AUTH commands",
    gate=lambda shape: shape.lower() in _GATE_WORDS,
    probe=lambda lowered: " " in lowered or "\t" in lowered,
    apply=_apply,
    after_key=False,
)
