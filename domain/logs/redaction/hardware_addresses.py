"""MAC addresses written as twelve hexadecimal digits without separators, after the word that
names them (``mac=001A2B3C4D5E``, ``MAC address 001a2b3c4d5e``, ``"client_mac":
"a4b1c2d3e4f5"``, ``bssid: 0A1B2C3D4E5F``, ``chaddr 001122334455``).

Twelve hexadecimal digits alone are a hash's or an id's shape (lower-case hex stays, as
request and trace ids do), so only the name says they are a device's address: the family's
gate is a word naming one (``mac``, ``hwaddr``, ``lladdr``, ``chaddr``, ``bssid``, ``ether``,
a Wi-Fi station's ``sta``/``station``, alone, as the end of a key, or with
``address``/``addr``), and the value must follow it, after ``:``, ``=``, ``is`` or a space.
``hmac``, ``machine``, ``macro`` and ``status`` name none. After the name the pairs may also
be joined by dots or underscores, and a netfilter ``MAC=`` field's fourteen octets (two
addresses and an EtherType) go whole.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["BARE_MACS"]

_MAC: Final = Placeholder.MAC.value
_NAME: Final = (
    r"(?:mac|hwaddr|hw_addr|lladdr|chaddr|bssid|ether|sta|station)(?:[_\- ]?(?:address|addr))?"
)
_VALUE: Final = (
    r"[0-9A-Fa-f]{12}|[0-9A-Fa-f]{2}(?P<sep>[._])[0-9A-Fa-f]{2}(?:(?P=sep)[0-9A-Fa-f]{2}){4}"
    r"|(?:[0-9A-Fa-f]{2}:){13}[0-9A-Fa-f]{2}"
)
"""Twelve bare hex digits; six pairs joined by dots or underscores (``00.1A.2B.3C.4D.5E``);
the fourteen octets of netfilter's ``MAC=`` (destination, source and EtherType)."""
_BARE_MAC: Final = re.compile(
    r"(?i)(?<![a-z])(" + _NAME + r")"
    r"([\"']?[ \t]*(?:[:=][ \t]*|is[ \t]+)?[\"']?)(" + _VALUE + r")(?![\w\-:.])"
)
_PIECES: Final = ("mac", "addr", "bssid", "ether", "sta")
"""A piece every name holds (the cheap test before the search)."""
_NAME_WORD: Final = re.compile(r"(?<![a-z])" + _NAME + r"(?![a-z])").search


def _gate(shape: str) -> bool:
    """A word holding a name of a MAC address as a word of its own (``mac``, ``src_mac=``,
    ``"macAddress":``), read on the lower-cased shape."""
    lowered = shape.lower()
    if not any(map(lowered.__contains__, _PIECES)):
        return False
    return _NAME_WORD(lowered) is not None


def _replace(match: re.Match[str]) -> str:
    value = match.group(3)
    if not any(char.isdigit() for char in value):
        return match.group(0)  # a word of hex letters only (``deadbeefcafe``) is no address
    return match.group(1) + match.group(2) + _MAC


BARE_MACS: Final = TextFamily(
    name="MAC addresses as twelve hex digits after the word naming them",
    gate=_gate,
    probe=lambda lowered: any(map(lowered.__contains__, _PIECES)),
    apply=lambda text: _BARE_MAC.sub(_replace, text),
)
