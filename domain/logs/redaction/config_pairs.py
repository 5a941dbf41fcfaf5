"""Credentials in configuration dumps where the key and the value are two separate fields.

* **Name and value pairs**: the name of a setting in one field and its value in the next, as
  Kubernetes writes an environment (``- name: DB_PASSWORD`` then ``value: "…"``), as JSON
  lists of parameters do (``{"Name": "api_key", "Type": "…", "Value": "…"}``, up to three
  fields between) and XML properties
  (``<property name="password" value="…"/>``); the value goes when the name is a credential
  key's (``secret_keys.is_secret_key``).
* **XML entries keyed by an attribute**: ``<entry key="jdbc.password">…</entry>``,
  ``<add name="ApiSecret">…</add>``.
* **Padded keys**: ``password.................."…"`` (configuration printed with the key
  padded by dots to a column).
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import replaced_value
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.secret_keys import is_secret_key
from factledger.domain.logs.redaction.value_shapes import keeps_value

__all__ = ["CONFIG_PAIRS"]

_SECRET: Final = Placeholder.SECRET.value
_PAIR: Final = re.compile(
    r"(?i)([\"']?(?:name|key|parametername|variable)[\"']?\s*[:=]\s*)([\"']?)([\w.\-/]{1,80})\2"
    r"((?:\s|\\n|\\t|,|-)*(?:[\"']\w{1,30}[\"']\s*:\s*(?:\"[^\"]{0,80}\"|[\w.]{1,30})\s*,\s*){0,3}"
    r"[\"']?(?:value|parametervalue)[\"']?\s*[:=]\s*)"
    r"(\"(?:[^\"\\]|\\.)*\"|'[^']*'|[^\s,}\"'/>]+)"
)
_ENTRY: Final = re.compile(
    r"(?i)(<([\w:\-]+)\s[^>]*?\b(?:key|name)=\"([^\"]{1,80})\"[^>/]*>)([^<]+)(</\2\s*>)"
)
_PADDED: Final = re.compile(
    r"(?<![\w.])([A-Za-z](?:[\w\-]|\.(?!\.)){0,60})(\.{4,}[ \t]*)(\"[^\"]*\"|\S+)"
)


def _pair(match: re.Match[str]) -> str:
    name, value = match.group(3), match.group(5)
    bare = value.strip("\"'")
    if not bare or bare.startswith("<") or not is_secret_key(name) or keeps_value(name, bare):
        return match.group(0)
    head = match.group(1) + match.group(2) + name + match.group(2) + match.group(4)
    return head + replaced_value(value)


def _entry(match: re.Match[str]) -> str:
    name, value = match.group(3), match.group(4)
    if value.startswith("<") or not is_secret_key(name) or keeps_value(name, value):
        return match.group(0)
    return match.group(1) + _SECRET + match.group(5)


def _padded(match: re.Match[str]) -> str:
    name, value = match.group(1), match.group(3)
    bare = value.strip("\"'")
    if not bare or bare.startswith("<") or not is_secret_key(name) or keeps_value(name, bare):
        return match.group(0)
    return name + match.group(2) + replaced_value(value)


def _apply(text: str) -> str:
    lowered = text.lower()
    if "value" in lowered:
        text = _PAIR.sub(_pair, text)
    if "</" in text:
        text = _ENTRY.sub(_entry, text)
    if "...." in text:
        text = _PADDED.sub(_padded, text)
    return text


_FIELD_STARTS: Final = ("name", "key", "parametername", "variable")
_FIELD_INITIALS: Final = frozenset("nNkKpPvV")


def _gate(shape: str) -> bool:
    """A word that starts a name field (``name:``, ``name="``, ``"Name":``, ``key="``) or
    holds one inside a JSON object, or pads a key with dots."""
    if "...." in shape:
        return True
    field = shape.lstrip("-{[\"' <")
    if field[:1] in _FIELD_INITIALS and field.lower().startswith(_FIELD_STARTS):
        return True
    return '"' in shape and '"name"' in shape.lower()


def _probe(lowered: str) -> bool:
    return "value" in lowered or "</" in lowered or "...." in lowered


def _cue(shape: str) -> bool:
    """A word that starts or holds a value field, closes an XML entry or pads a key: without
    one a name field (``key=shipping:51429``) has no value of this family to read."""
    return "...." in shape or "</" in shape or "value" in shape.lower()


CONFIG_PAIRS: Final = TextFamily(
    name="credentials in name and value fields, keyed XML entries and padded keys",
    gate=_gate,
    probe=_probe,
    apply=_apply,
    cue=_cue,
)
