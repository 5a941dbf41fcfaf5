"""A credential whose value is an object holding it: Spring Boot's ``/actuator/env`` dump
(``"spring.mail.password": {"value": "…", "origin": "env"}``), Terraform and Vault outputs
(``"db_password": {"sensitive": true, "value": "…"}``), and the like.

The key names the credential; the object's ``value`` (or ``secret``, ``plaintext``,
``current``) field holds it, after other fields or first. A stand-in (``"******"``) or a
quantity under a counting key stays, as under any credential key (``keeps_value``).
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.secret_keys import is_secret_key
from factledger.domain.logs.redaction.value_shapes import keeps_value

__all__ = ["NESTED_VALUES"]

_SECRET: Final = Placeholder.SECRET.value
_FIELDS: Final = ("value", "secret", "plaintext", "current")
_NESTED: Final = re.compile(
    r"\"([\w.\-\[\]]{1,80})\"\s*:\s*\{((?:\s*\"\w{1,30}\"\s*:\s*(?:true|false|null|-?\d+|\"[^\"\\]{0,80}\")\s*,)*?"
    r"\s*\"(?:" + "|".join(_FIELDS) + r")\"\s*:\s*\")([^\"\\]{1,256})\""
)
_KEY_WORD: Final = re.compile(r"\"([\w.\-\[\]]{1,80})\":(?:\{|$)").search


def _gate(shape: str) -> bool:
    """A word holding a quoted credential key right before ``:`` and an object's brace (or
    the end of the word)."""
    if '":' not in shape:
        return False
    found = _KEY_WORD(shape)
    return found is not None and is_secret_key(found.group(1))


def _nested(match: re.Match[str]) -> str:
    value = match.group(3)
    if value.startswith("<") or not is_secret_key(match.group(1)):
        return match.group(0)
    if keeps_value(match.group(1), value):
        return match.group(0)
    return match.group(0)[: match.start(3) - match.start()] + _SECRET + '"'


NESTED_VALUES: Final = TextFamily(
    name="credentials in the value field of an object under a credential key",
    gate=_gate,
    probe=lambda lowered: ":{" in lowered or ": {" in lowered,
    apply=lambda text: _NESTED.sub(_nested, text),
)
