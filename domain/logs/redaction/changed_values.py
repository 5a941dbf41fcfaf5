"""A credential's new value told in words: ``password changed to '…'``, ``passphrase reset to
…``, ``the api key was changed to …``, ``PIN set to 4821``, ``token rotated to …``, ``root
password has been updated to: …``, ``changed root password to …``, ``password was changed
from '…' to '…'`` (both values), ``the password is now '…'``.

A verb of change (``changed``, ``set``, ``reset``, ``updated``, ``rotated`` …) and ``to`` next
to a credential noun name the value that follows, so it goes whatever its shape: quoted or
bare, a plain word or digits (PINs are digits). What stays is what names no value: a mask or
a reference, a placeholder, a path or a URL (``secret set to /run/secrets/db``), a word that
says how it was changed (``set to expire``, ``reset to default``, ``rotated to version 5``), a
quantity or a version after a noun that is no PIN or password (``token set to 3600
seconds``), a field (``token changed to state=active``), a plain lower-case word followed
by a word that does not end the phrase (``changed to meet policy``; ``reset to bluebird by
ops`` still goes), and after ``is now`` a plain lower-case word (``password is now
required``).
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
_VALUE: Final = r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|[^\s\"'`<]+"
_VERB: Final = "|".join(sorted(_VERBS))
_CHANGED: Final = re.compile(
    r"(?i)(?:\b(?P<noun>" + _NOUN + r")"
    r"(?:\s+(?:(?:has|have)\s+been\s+|was\s+|were\s+|is\s+|got\s+|been\s+)?"
    r"(?:(?:successfully|just|now|also|manually|automatically)\s+)?"
    r"(?:" + _VERB + r")(?:\s+from\s+(?P<old>" + _VALUE + r"))?\s+to\s*:?\s*"
    r"|(?P<now>\s+(?:is|was)\s+now\s*:?\s*))"
    r"|\b(?:" + _VERB + r")\s+(?:(?:the|my|your|his|her|their|its|a|new)\s+)?"
    r"(?:[\w\-]+\s+){0,2}?(?P<object>" + _NOUN + r")\s+to\s*:?\s*)"
    r"(?P<value>" + _VALUE + r")"
)
_NO_VALUE: Final = frozenset(
    {"default", "defaults", "empty", "blank", "none", "null", "nil", "random", "expire", "expired"}
    | {"never", "true", "false", "a", "an", "the", "its", "their", "be", "not", "same", "previous"}
    | {"unset", "disabled", "enabled", "auto", "automatic", "generated", "manual", "on", "off"}
    | {"version", "revision", "latest", "current", "next", "new", "stage", "pending", "active"}
    | {"input", "output", "high", "low"}
)
"""Words after ``set to`` that say how, not what (``token set to expire``)."""
_WORD: Final = re.compile(r"[a-z]+").fullmatch
"""After ``is now`` a plain lower-case word says what the credential is (``expired``,
``required``), not what it holds."""
_NEXT_WORD: Final = re.compile(r"[ \t]+([a-z]+)\b").match
_CLAUSE_ENDS: Final = frozenset(
    {"for", "by", "on", "at", "in", "from", "via", "and", "after", "successfully", "ok", "of"}
    | {"to"}
)
"""Words after a plain lower-case value that end the phrase (``reset to sunshine by ops``);
any other word makes the value a verb or an adjective (``changed to meet policy``)."""
_VERSION: Final = re.compile(r"v\d+(?:\.\d+)*").fullmatch
_NUMBER_NOUNS: Final = frozenset({"pin", "password", "passwd", "pwd", "passcode", "pass"})
_TRAILING: Final = ",;.)]}"


def _kept(value: str, noun: str, now: bool, rest: str) -> bool:
    """True when the value after the phrase names none (see the module text); ``rest`` is the
    text after it."""
    core = value if value[:1] in "'\"`" else value.rstrip(_TRAILING)
    bare = core.strip("'\"`")
    if not bare or is_stand_in(bare) or bare.startswith("<"):
        return True
    if core != bare:
        return False
    if bare.lower() in _NO_VALUE or (now and _WORD(bare)) or "=" in bare:
        return True
    if _WORD(bare) and (following := _NEXT_WORD(rest)) is not None:
        return following.group(1) not in _CLAUSE_ENDS  # ``changed to meet policy``
    if (is_quantity(bare) or _VERSION(bare)) and noun.lower() not in _NUMBER_NOUNS:
        return True
    return bare[:1] in "/~$%" or bare.startswith("./") or "://" in bare


def _masked(value: str) -> str:
    core = value if value[:1] in "'\"`" else value.rstrip(_TRAILING)
    replaced = "`<SECRET>`" if core[:1] == "`" else replaced_value(core)
    return replaced + value[len(core) :]


def _changed(match: re.Match[str]) -> str:
    noun = match.group("noun") or match.group("object")
    now = match.group("now") is not None
    rest = match.string[match.end() : match.end() + 40]
    if _kept(match.group("value"), noun, now, rest):
        return match.group(0)
    text, start = match.group(0), match.start()
    spans = [("value", match.span("value"))]
    old = match.group("old")
    if old is not None and not _kept(old, noun, now, match.string[match.end("old") :][:40]):
        spans.append(("old", match.span("old")))
    for name, (begin, end) in spans:  # the value first: it is the later one
        text = text[: begin - start] + _masked(match.group(name)) + text[end - start :]
    return text


_NOUN_WORDS: Final = frozenset(
    {"password", "passwd", "passphrase", "passcode", "pass", "pwd", "pin", "secret", "token"}
    | {"credential", "credentials", "key", "apikey", "accesskey", "secretkey", "privatekey"}
    | {"signingkey", "masterkey", "encryptionkey", "clientkey"}
)
_PIECES: Final = ("pass", "pwd", "pin", "secret", "token", "cred", "key")
_LETTER_RUNS: Final = re.compile(r"[a-z]+").findall


def _noun(shape: str) -> bool:
    """A word that is a credential noun between characters that are no letters (``pin``, not
    ``ping`` or ``mapping``: the family runs only on texts with such a word and a verb)."""
    lowered = shape.lower()
    if not any(piece in lowered for piece in _PIECES):
        return False
    return not _NOUN_WORDS.isdisjoint(_LETTER_RUNS(lowered))


CHANGED_VALUES: Final = TextFamily(
    name="a credential's new value told in words",
    gate=_noun,
    probe=lambda lowered: " to" in lowered or " now" in lowered,
    apply=lambda text: _CHANGED.sub(_changed, text),
    cue=lambda shape: shape.lower() in _VERBS or shape.lower() == "now",
    after_key=False,
)
