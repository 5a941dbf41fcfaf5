"""A value stored under a credential's name by any command that sets one, whatever the tool.

``rclone config create r s3 secret_access_key …``, ``heroku config:set API_TOKEN …``,
``dotnet user-secrets set "Db:Password" …``, ``consul kv put app/db_password …``,
``etcdctl put /app/api_key …``, ``npm config set //registry/:_authToken …``: a command word
that sets, puts, writes or stores something, then a name whose last part is a credential
(``secret_keys.is_secret_key`` on the part after the last ``/``, ``:`` or ``.``), then its
value as the next word (after any words that say how it is written: ``ascii-text``,
``0``). No table of tools: the verb and the name say what the value is.

The name must be a compound (``db_password``, ``API_TOKEN``, ``app/secret``, ``Db:Password``):
a bare ``password`` or ``token`` after ``set`` is ordinary prose (``set password reset
flag``). A reference (``$VAR``, ``-``), a placeholder, a quantity (``set max_tokens 4096``)
a flag and a word that reports an outcome (``update client_secret done``) stay.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.command_arguments import secret_value, shell_segments
from factledger.domain.logs.redaction.credential_phrases import replaced_value
from factledger.domain.logs.redaction.device_configs import is_type_marker
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.secret_keys import is_secret_key
from factledger.domain.logs.redaction.value_shapes import is_quantity

__all__ = ["NAMED_SETTINGS"]

_VERBS: Final = frozenset(
    {"set", "put", "add", "create", "write", "store", "setenv", "update", "insert", "import"}
    | {"env"}
)
"""Words that store a value (``config:set``, ``env:set``, ``set-env`` end with one; a
Dockerfile's ``ENV NAME value``)."""
_NOUNS: Final = ("pass", "pw", "secret", "token", "key", "auth", "cred", "psk", "cookie", "sig")
"""Words one of which every credential name here holds (a cheap test before the lexicon)."""
_PARTS: Final = re.compile(r"[/:.]")
_COMPOUND: Final = re.compile(r"[A-Za-z0-9]+(?:[_\-/:.][A-Za-z0-9_]*)+|[a-z]+[A-Z][A-Za-z0-9]*")


def _verb(word: str) -> bool:
    lowered = word.lower()
    return (
        lowered in _VERBS
        or lowered.rsplit(":", 1)[-1] in _VERBS
        or (lowered.split("-", 1)[0] in _VERBS and "-" in lowered)
    )


def _credential_name(word: str) -> bool:
    """True for a compound name whose last part names a credential."""
    name = word.strip("'\"")
    lowered = name.lower()
    if not any(noun in lowered for noun in _NOUNS):
        return False
    if name[:1] == "-" or "=" in name or _COMPOUND.fullmatch(name.lstrip("/")) is None:
        return False
    last = _PARTS.split(name.rstrip("/"))[-1].lstrip("_")
    return bool(last) and is_secret_key(last if last != name else name)


_OUTCOMES: Final = frozenset(
    {
        "ok",
        "done",
        "failed",
        "succeeded",
        "success",
        "rotated",
        "removed",
        "deleted",
        "saved",
        "updated",
        "changed",
        "missing",
        "expired",
        "invalid",
        "empty",
        "unset",
        "true",
        "false",
        "null",
        "none",
        "to",
        "for",
        "from",
        "in",
        "on",
        "at",
        "of",
        "with",
        "by",
        "as",
        "is",
    }
)
"""Words after the name that report what happened or go on with the sentence (``update
client_secret done``, ``set api_key for tenant 5``): no value was logged."""


def _kept(value: str) -> bool:
    bare = value.strip("'\"")
    if value[:1] == "-" or not secret_value(value) or is_quantity(bare) or "=" in bare:
        return True
    return value == bare and bare.lower() in _OUTCOMES


def _apply(text: str) -> str:
    spans: list[tuple[int, int, str]] = []
    for segment, _ in shell_segments(text):
        words = [word for _, _, word in segment]
        verb = next((index for index, word in enumerate(words) if _verb(word)), -1)
        if verb < 0:
            continue
        for index in range(verb + 1, len(segment) - 1):
            if not _credential_name(words[index]):
                continue
            at = index + 1
            while at < len(segment) - 1 and is_type_marker(words[at]):
                at += 1
            if not _kept(words[at]):
                spans.append(segment[at])
    for start, end, value in sorted(set(spans), reverse=True):
        text = text[:start] + replaced_value(value) + text[end:]
    return text


NAMED_SETTINGS: Final = TextFamily(
    name="values stored under a credential's name by a command that sets one",
    gate=_credential_name,
    cue=_verb,
    probe=lambda lowered: " " in lowered,
    apply=_apply,
    after_key=False,
)
