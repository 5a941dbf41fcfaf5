"""A credential's new value told in words: ``password changed to '…'``, ``passphrase reset to
…``, ``the api key was changed to …``, ``PIN set to 4821``, ``token rotated to …``, ``root
password has been updated to: …``.

A verb of change (``changed``, ``set``, ``reset``, ``updated``, ``rotated`` …) and ``to`` right
after a credential noun (or ``is now``) name the value that follows, so it goes whatever its
shape: quoted or bare, a plain word or digits (PINs are digits); after ``is now`` a plain
lower-case word stays (``password is now required``). What stays is what names no value: a mask or a
reference, a placeholder, a path or a URL (``secret set to /run/secrets/db``), a word that
says how it was changed (``set to expire``, ``reset to
default``, ``set to random``), and a quantity after a noun that is no PIN or password
(``token set to 3600 seconds``).
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import replaced_value
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.value_shapes import is_quantity, is_stand_in

__all__ = ["CHANGED_VALUES"]

_NOUN: Final = (
    r"pass(?:word|wd|phrase|code)?|pwd|pin|secret|token|credentials?"
    r"|(?:api|access|secret|private|signing|master|encryption|client)[ _\-]?key"
)
_VERBS: Final = frozenset(
    {"changed", "set", "reset", "updated", "rotated", "modified", "regenerated", "renewed"}
)
_CHANGED: Final = re.compile(
    r"(?i)\b(?P<noun>" + _NOUN + r")"
    r"(?P<between>\s+(?:(?:has|have)\s+been\s+|was\s+|were\s+|is\s+|got\s+|been\s+)?"
    r"(?:(?:successfully|just|now|also|manually|automatically)\s+)?"
    r"(?:" + "|".join(sorted(_VERBS)) + r")\s+to\s*:?\s*|(?P<now>\s+(?:is|was)\s+now\s*:?\s*))"
    r"(?P<value>'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|[^\s\"'`<]+)"
)
_NO_VALUE: Final = frozenset(
    {"default", "defaults", "empty", "blank", "none", "null", "nil", "random", "expire", "expired"}
    | {"never", "true", "false", "a", "an", "the", "its", "their", "be", "not", "same", "previous"}
    | {"unset", "disabled", "enabled", "auto", "automatic", "generated", "manual", "on", "off"}
)
"""Words after ``set to`` that say how, not what (``token set to expire``)."""
_WORD: Final = re.compile(r"[a-z]+").fullmatch
"""After ``is now`` a plain lower-case word says what the credential is (``expired``,
``required``), not what it holds."""
_NUMBER_NOUNS: Final = frozenset({"pin", "password", "passwd", "pwd", "passcode", "pass"})
_TRAILING: Final = ",;.)]}"


def _changed(match: re.Match[str]) -> str:
    value = match.group("value")
    core = value if value[:1] in "'\"`" else value.rstrip(_TRAILING)
    bare = core.strip("'\"`")
    if not bare or is_stand_in(bare) or bare.startswith("<"):
        return match.group(0)
    if core == bare and (bare.lower() in _NO_VALUE or (match.group("now") and _WORD(bare))):
        return match.group(0)
    if core == bare and is_quantity(bare) and match.group("noun").lower() not in _NUMBER_NOUNS:
        return match.group(0)
    if core == bare and (bare[:1] in "/~$%" or bare.startswith("./") or "://" in bare):
        return match.group(0)  # a path, a reference or a URL that holds it
    replaced = "`<SECRET>`" if core[:1] == "`" else replaced_value(core)
    return match.group("noun") + match.group("between") + replaced + value[len(core) :]


def _noun(shape: str) -> bool:
    lowered = shape.lower()
    return any(word in lowered for word in ("pass", "pwd", "pin", "secret", "token", "cred", "key"))


CHANGED_VALUES: Final = TextFamily(
    name="a credential's new value told in words",
    gate=_noun,
    probe=lambda lowered: " to" in lowered or " now" in lowered,
    apply=lambda text: _CHANGED.sub(_changed, text),
    cue=lambda shape: shape.lower() in _VERBS or shape.lower() == "now",
    after_key=False,
)
