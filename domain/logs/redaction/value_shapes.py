"""The value-shape rule: a credential-sounding key whose value is only a quantity keeps it.

A key names a credential by its words (``secret_keys``); some of those keys still only count
or time a credential: a key with a quantity word (``token_ttl_seconds``, ``max_tokens``,
``password_min_length``) or a plural credential noun (``completion_tokens``, ``sessions``).
Their value stays when it has a quantity's shape (a number, a duration, a size, a boolean);
any other value under them is still a credential. A singular credential key (``pin``,
``otp``, ``password``) never keeps a number: PINs and one-time codes are numbers.

A weak credential word (``auth``, ``session``, ``cookie``, ``sig``, ``token``) names a
subsystem as often as a value: under it a bare lower-case word (``auth: login ok``, ``invalid
token: signature has expired``) stays; no generated token is a short lower-case word.

A value that only stands in for a credential stays under any key: a mask, a reference to a
variable, format directives, ``YES``/``NO`` (``is_stand_in``).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["is_quantity", "is_stand_in", "keeps_value"]

QUANTITY_WORDS: Final = frozenset(
    {
        "ttl",
        "seconds",
        "secs",
        "sec",
        "ms",
        "millis",
        "minutes",
        "mins",
        "hours",
        "days",
        "timeout",
        "max",
        "min",
        "limit",
        "limits",
        "count",
        "num",
        "number",
        "total",
        "len",
        "length",
        "size",
        "bytes",
        "lifetime",
        "duration",
        "interval",
        "retries",
        "attempts",
        "remaining",
        "used",
        "per",
        "budget",
        "rate",
        "window",
        "age",
        "expires",
        "expiry",
        "expiration",
        "latency",
        "delay",
        "elapsed",
        "issued",
        "time",
        "timestamp",
        "at",
        "epoch",
        "version",
        "generation",
        "rotation",
        "depth",
        "hits",
        "misses",
        "errors",
        "failures",
        "capacity",
        "burst",
        "refill",
        "quota",
        "threshold",
        "bucket",
        "exp",
        "in",
        "history",
        "retention",
        "concurrency",
        "workers",
        "slots",
        "bits",
        "kb",
        "mb",
        "gb",
        "ratio",
        "percent",
        "pct",
        "cost",
        "weight",
        "level",
        "index",
        "idx",
        "offset",
        "digits",
        "period",
        "step",
        "skew",
        "drift",
    }
    | {"länge", "laenge", "anzahl", "versuche", "dauer", "gültigkeit", "alter", "longueur"}
    | {"tentatives", "durée", "duree", "taille", "longitud", "intentos", "duración", "duracion"}
    | {"tamaño", "tamanho", "tentativas", "comprimento", "duração", "duracao", "lengte"}
    | {"pogingen", "duur", "długość", "dlugosc", "próby", "proby", "délka", "pokusy", "längd"}
    | {"försök", "pituus", "yritykset", "uzunluk", "deneme", "длина", "попытки", "长度", "次数"}
)
"""Words of a key that count, time or size what it names (in English and, for the password
labels of other languages, in theirs)."""
ID_WORDS: Final = frozenset({"id", "ids", "no", "nr", "seq"})
"""Words of a key that name a credential's number in a list, not the credential (``api_key_id``),
except a session's: a session id is the session."""
_SESSION_WORDS: Final = frozenset(
    {"session", "sess", "sid", "sessionid", "sessid", "passport", "ssn", "nino", "pin"}
)
"""Words of a key whose numbered value is the credential or the document itself (a session
id is the session, a passport number the passport), so ``ID_WORDS`` keep nothing under them."""
PLURAL_NOUNS: Final = frozenset(
    {"tokens", "secrets", "passwords", "keys", "sessions", "cookies", "credentials", "creds"}
)
WEAK_WORDS: Final = frozenset(
    {"auth", "session", "cookie", "sig", "cred", "sid", "token", "jwt", "otp", "totp", "signature"}
)
_QUANTITY: Final = re.compile(
    r"[\"']?(?:-?\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|d|b|kb|mb|gb|kib|mib|gib|%)?"
    r"|true|false|yes|no|on|off|none|null)[\"']?",
    re.IGNORECASE,
).fullmatch
_LOWER_WORD: Final = re.compile(r"[a-z]{2,12}").fullmatch
_STAND_IN: Final = re.compile(
    r"\*{3,}|[xX]{3,}|[#•]{3,}|yes|no|YES|NO|Yes|No|\{\{-?"
    r"|[\[(<{]?(?i:redacted|hidden|masked|filtered|removed|omitted|sanitized|scrubbed)[\])>}]?"
    r"|(?:\$\{[A-Za-z_][\w.]*(?::[A-Za-z_][\w.]*)?\}|\$[A-Z_][A-Z0-9_]*|%[A-Z_][A-Z0-9_]*%"
    r"|%\{[\w.\-]+\}|\{\{[^{}]{1,80}\}\}|%[sdqv]|\s)+"
).fullmatch
"""A value that stands in for a credential without being one: a mask (``********``,
``[REDACTED]``), a reference to one (``${DB_PASSWORD}``, ``$API_TOKEN``, ``%PASS%``,
``{{ .Values.password }}``, whose word ``{{`` is read alone), format directives (curl's
``%{http_code}``), or the ``YES``/``NO`` of MySQL's ``(using password: YES)``."""
_CALL: Final = re.compile(r"[A-Za-z_][\w.]{2,63}\((?:[\"')]|[A-Za-z_][A-Za-z_.]{0,30}[,)])").match
"""A value that is a call in code (``api_key=get_key()``, ``token=fetch("svc")``): the call
gives the credential, its text holds none (``call_arguments.calls_code`` for a value read
before its ``(``)."""
_RATIO: Final = re.compile(r"\d{1,3}/\d{1,3}").fullmatch
"""A step of a count (``pass=1/3``, ``auth_attempt=2/5``): no password is written so."""
_TUPLE_STARTS: Final = ("('", '("')
"""A tuple of literals as a credential's value (``auth=('bob', '…')``): its user and password
are judged by ``call_arguments``."""
_SPLIT: Final = re.compile(r"[_.\-\s/]+|(?<=[a-z0-9])(?=[A-Z])")
_NAME_PATH: Final = re.compile(r"[a-z]{2,}(?:[/\-_.:](?:[a-z]+|\d{1,4}))*").fullmatch
"""A name or path of lower-case words (``prod/db/main``, ``payments/stripe-webhook``): what
an id of a stored secret is called, not the secret (AWS's ``SecretId``)."""


_NSS_SOURCES: Final = frozenset(
    {"files", "systemd", "sss", "ldap", "nis", "nisplus", "db", "compat", "winbind", "altfiles"}
)
"""The sources of an ``nsswitch.conf`` line (``passwd: files systemd``): a database's name is
the key, not a credential."""
_NSS_DATABASES: Final = frozenset({"passwd", "shadow", "gshadow"})


def is_quantity(value: str) -> bool:
    """True when a value is a number, a duration, a size or a boolean."""
    return _QUANTITY(value.strip()) is not None


def is_stand_in(value: str) -> bool:
    """True when a value only stands in for a credential (a mask, a reference, format
    directives, yes or no) and so stays."""
    return _STAND_IN(value) is not None


_STANDARD_INPUT: Final = frozenset({"-", "/dev/stdin"})
"""Values that say the command reads the secret from standard input (a here-string or a pipe
holds it, and the command families judge those)."""


def keeps_value(key: str, value: str) -> bool:
    """True when a value under a credential-sounding key stays as written."""
    words = [word.lower() for word in _SPLIT.split(key.strip("-.\"'\\ ")) if word]
    if not words:
        return False
    if is_stand_in(value.strip("\"'")) or value in _STANDARD_INPUT:
        return True
    if "(" in value and (_CALL(value) is not None or value[:2] in _TUPLE_STARTS):
        return True
    if "/" in value and _RATIO(value) is not None:
        return True
    if len(words) == 1 and words[0] in _NSS_DATABASES and value in _NSS_SOURCES:
        return True
    if is_quantity(value) and any(w in QUANTITY_WORDS or w in PLURAL_NOUNS for w in words):
        return True
    if (
        len(words) > 1
        and words[-1] in ID_WORDS
        and _SESSION_WORDS.isdisjoint(words)
        and (value.strip("\"'").isdigit() or _NAME_PATH(value.strip("\"'")) is not None)
    ):
        return True
    return len(words) == 1 and words[0] in WEAK_WORDS and _LOWER_WORD(value) is not None
