"""One redaction pass over a text: context patterns gated by keywords, then shapes per word.

Keys, header names, schemes and URL structure stay; only the sensitive value is replaced by a
typed placeholder (``password=<SECRET>``, ``Authorization: Bearer <SECRET>``,
``postgres://app:<SECRET>@<HOST>:5432/db``). A ``Redactor`` remembers the result for every
distinct word it has seen, so a repeated word costs one dictionary look-up.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from enum import Enum
from typing import Final

from factledger.domain.json_types import JsonValue
from factledger.domain.logs import redaction_patterns as patterns
from factledger.domain.logs.placeholders import Placeholder
from factledger.domain.logs.secret_keys import is_secret_key

__all__ = ["Redactor"]

_MEMO_LIMIT: Final = 200_000
_MEMO_CHARS: Final = 16_000_000
"""The word memory is emptied when the words it holds reach this many characters."""
_KEEP_VALUES: Final = frozenset(
    {"", "null", "none", "true", "false", "nil", "undefined", "***", "****", "*****", "[redacted]"}
)
_AUTH_SCHEMES: Final = frozenset(
    {"bearer", "basic", "digest", "token", "negotiate", "ntlm", "apikey", "hmac", "sso-key"}
)
_COOKIE_ATTRIBUTES: Final = frozenset(
    {"path", "domain", "expires", "max-age", "samesite", "secure", "httponly", "priority"}
)
_SQL_WORDS: Final = ("select", "insert", "update", "delete", "replace")
_SCHEME_WORDS: Final = ("bearer", "basic", "token", "apikey", "api-key")
_SECRET: Final = Placeholder.SECRET.value


_CONTEXT: Final = 1
_PHONE: Final = 2
_DIGIT_GROUP: Final = 4
_GATE_WORDS: Final = (
    "pass",
    "pwd",
    "secret",
    "token",
    "auth",
    "bearer",
    "basic",
    "digest",
    "cookie",
    "cred",
    "jwt",
    "salt",
    "priv",
    "-----begin",
    "mysql",
    "--user",
)
_GATE_EXACT: Final = frozenset(
    {"pod", "pods", "pid", "ppid", "tid", "process", "select", "insert", "update", "delete"}
    | {"replace", "-u"}
)
_KEY_GATE: Final = re.compile(
    r"apikey|accountkey|(?:api|access|signing|encryption|client|account|master|license|ssh|gpg"
    r"|pgp|tls|ssl|shared|storage|app|application|consumer|subscription|webhook|service|admin"
    r"|root|hmac|session|x)[_.\-]?key"
)
_SEPARATOR_GATE: Final = re.compile(
    r"(?:session|sig|signature|sid|sas|otp|pin|psk|pw|host|hostname|host_name|node|nodename"
    r"|node_name|fqdn)[\"']?[=:]"
    r"|(?:pods?|pod_?name|pid|ppid|tid|process|process_?id)[\"']?[=:#/]"
)


def _gated(lowered: str) -> bool:
    """True when a (lower-cased) word may start a context pattern; a line without such a word
    skips every context pattern."""
    if any(map(lowered.__contains__, _GATE_WORDS)):
        return True
    if "key" in lowered and _KEY_GATE.search(lowered) is not None:
        return True
    if lowered.strip("\"'(),;[]{}") in _GATE_EXACT:
        return True
    return ("=" in lowered or ":" in lowered or "/" in lowered or "#" in lowered) and (
        _SEPARATOR_GATE.search(lowered) is not None
    )


_WHITE_SPACE: Final = re.compile(r"([ \t\r\n]+)")
_KEY: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]{0,63}").fullmatch
_TRAILING: Final = ",;:.)]}'\">"
_DIGIT_RUN3: Final = re.compile(r"\d{3}[\-.]").search
_OCTET: Final = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_IPV4_WORD: Final = re.compile(r"(" + _OCTET + r"(?:\." + _OCTET + r"){3})(:\d{1,5})?").fullmatch
"""A word that is exactly an IPv4 address, maybe with a port."""
_EMAIL_WORD: Final = re.compile(
    r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}"
).fullmatch
"""A word that is exactly an e-mail address."""
_HAS_DIGIT: Final = re.compile(r"\d").search
_HAS_LETTER: Final = re.compile(r"[A-Za-z]").search
_PHONE_START: Final = re.compile(r"\+\d|\(\d{3}\)")


class _KeyKind(Enum):
    """What a ``key=`` prefix says about the value after it."""

    PLAIN = "plain"
    CONTEXT = "context"
    SECRET = "secret"
    HOST = "host"
    PID = "pid"
    POD = "pod"


_HOST_KEYS: Final = frozenset(
    {"host", "hostname", "host_name", "node", "nodename", "node_name", "fqdn"}
)
_PID_KEYS: Final = frozenset({"pid", "ppid", "tid", "process_id", "processid"})
_POD_KEYS: Final = frozenset({"pod", "pods", "pod_name", "podname"})
_HOST_VALUE: Final = re.compile(
    r"(?=[A-Za-z0-9.\-]*[A-Za-z])([A-Za-z0-9](?:[A-Za-z0-9.\-]*[A-Za-z0-9])?)([^A-Za-z0-9.\-<].*)?"
).fullmatch
_PID_VALUE: Final = re.compile(r"(\d{1,9})(\D.*)?").fullmatch
_POD_VALUE: Final = re.compile(r"([a-z0-9](?:[a-z0-9.\-]*[a-z0-9])?)([^a-z0-9.\-<].*)?").fullmatch


def _key_kind(key: str) -> _KeyKind:
    name = key[:-1].strip("-")
    lowered = name.lower()
    if is_secret_key(name):
        return _KeyKind.SECRET
    if lowered in _HOST_KEYS:
        return _KeyKind.HOST
    if lowered in _PID_KEYS:
        return _KeyKind.PID
    if lowered in _POD_KEYS:
        return _KeyKind.POD
    return _KeyKind.CONTEXT if _gated(key.lower()) else _KeyKind.PLAIN


def _keyed_value(kind: _KeyKind, value: str) -> str | None:
    """The value after a credential, host, pid or pod key, replaced; ``value`` itself when
    only the whole line can tell (an opening quote whose closing one is further on); None
    when the value has not the shape the key announces."""
    if kind is _KeyKind.SECRET:
        if value[:1] in ("'", '"') and not (len(value) >= 2 and value[-1] == value[0]):
            return value
        return _secret_value(value)
    if kind is _KeyKind.HOST:
        found = _HOST_VALUE(value)
        placeholder = Placeholder.HOST.value
    elif kind is _KeyKind.PID:
        found = _PID_VALUE(value)
        placeholder = Placeholder.PID.value
    else:
        found = _POD_VALUE(value)
        placeholder = Placeholder.POD.value
    if found is None:
        return None
    return placeholder + (found.group(2) or "")


class Redactor:
    """Redacts texts; keep one per projection so its word memory stays bounded.

    ``word_hook``, when given, is applied once to every distinct redacted word and its result
    remembered with it (the projector masks words for template mining this way, so a word is
    looked up once for both); ``redact_words`` returns those results. A ``key=value`` word's
    result is its key followed by the hook's result for its value.
    """

    def __init__(self, word_hook: Callable[[str], str] | None = None) -> None:
        self._hook = word_hook
        self._seen: dict[str, str] = {}
        """Every word learned → the hook's result for it ("" without a hook)."""
        self._changed: dict[str, str] = {}
        """Words that redaction changes → their redaction."""
        self._hooked_redactions: dict[str, str] = {}
        """Redacted words → the hook's result (many words redact to one placeholder)."""
        self._flagged: dict[str, int] = {}
        self._digit_groups: dict[str, bool] = {}
        self._shapes: dict[str, tuple[tuple[int, ...], int, str | None]] = {}
        self._key_kinds: dict[str, _KeyKind] = {}
        self._memo_chars = 0
        self._digits_hook = "" if word_hook is None else word_hook("0")
        """The hook's result for a word made of digits, or of hex digits with a digit (a
        hook must treat such words alike: the projector's masks them all to a wildcard)."""

    def _bound_memory(self) -> None:
        """Forget every word once the memory is full (only between two texts, so a text's
        words are never forgotten while it is being redacted)."""
        if len(self._seen) >= _MEMO_LIMIT or self._memo_chars > _MEMO_CHARS:
            self._memo_chars = 0
            self._seen.clear()
            self._changed.clear()
            self._hooked_redactions.clear()
            self._shapes.clear()
            self._flagged.clear()
            self._digit_groups.clear()

    def redact(self, text: str) -> str:
        """The text with every sensitive value replaced by its placeholder."""
        if not text:
            return text
        self._bound_memory()
        if "\n" in text or "\t" in text or "\r" in text:
            return self._redact_lines(text)
        parts = text.split(" ")
        self._known(parts)
        if self._needs_context(parts):
            rewritten = self._context(text, parts)
            if rewritten != text:
                return self._words(rewritten)
        changed = self._changed
        if not changed or changed.keys().isdisjoint(parts):
            return text
        return " ".join([changed.get(part, part) for part in parts])

    def redact_words(self, text: str) -> tuple[str, list[str]]:
        """The redacted text and the word hook's result for each of its words (split on
        white space). Needs a ``word_hook``."""
        hook = self._hook
        if hook is None:
            raise TypeError("redact_words needs a Redactor built with a word_hook")
        self._bound_memory()
        if not text or "\n" in text or "\t" in text or "\r" in text:
            redacted_text = self.redact(text)
            return redacted_text, [hook(word) for word in redacted_text.split()]
        parts = text.split(" ")
        hooked = list(map(self._seen.get, parts))
        if None in hooked:
            for index, found in enumerate(hooked):
                if found is None:
                    hooked[index] = self._learn(parts[index])[1]
        flagged = self._flagged
        groups = self._digit_groups
        if (flagged and not flagged.keys().isdisjoint(parts)) or (
            groups and not groups.keys().isdisjoint(parts) and _count_in(parts, groups) >= 3
        ):
            rewritten = self._context(text, parts)
            if rewritten != text:
                rewritten = self._words(rewritten)
                return rewritten, [hook(word) for word in rewritten.split()]
        changed = self._changed
        if not changed or changed.keys().isdisjoint(parts):
            return text, hooked  # type: ignore[return-value]  # every None was replaced
        return " ".join([changed.get(part, part) for part in parts]), hooked  # type: ignore[return-value]  # as above

    def _known(self, parts: list[str]) -> list[str]:
        """The hook's result for every word, learning the words not seen yet."""
        hooked = list(map(self._seen.get, parts))
        if None in hooked:
            for index, found in enumerate(hooked):
                if found is None:
                    hooked[index] = self._learn(parts[index])[1]
        return hooked  # type: ignore[return-value]  # every None was replaced above

    def _needs_context(self, parts: list[str]) -> bool:
        flagged = self._flagged
        if flagged and not flagged.keys().isdisjoint(parts):
            return True
        groups = self._digit_groups
        return (
            bool(groups) and not groups.keys().isdisjoint(parts) and (_count_in(parts, groups) >= 3)
        )

    def _words(self, text: str) -> str:
        parts = text.split(" ")
        self._known(parts)
        changed = self._changed
        if not changed or changed.keys().isdisjoint(parts):
            return text
        return " ".join([changed.get(part, part) for part in parts])

    def _redact_lines(self, text: str) -> str:
        """A text with line breaks or tabs: context patterns over the whole text (a PEM block
        spans lines), then the words of each piece between white space."""
        lowered = text.lower()
        rewritten = text
        if patterns.SECRET_GATE.search(lowered) is not None:
            rewritten = self._secrets(rewritten, lowered)
        if patterns.STRUCTURE_GATE.search(lowered) is not None:
            rewritten = _structures(rewritten, lowered)
        if "+" in rewritten or "(" in rewritten:
            rewritten = patterns.SPACED_PHONE.sub(_phone, rewritten)
        rewritten = patterns.GROUPED_CARD.sub(_grouped_card, rewritten)
        pieces = _WHITE_SPACE.split(rewritten)
        for index in range(0, len(pieces), 2):
            pieces[index] = self._lookup(pieces[index])[0]
        return "".join(pieces)

    def _context(self, text: str, parts: list[str]) -> str:
        flagged = self._flagged
        flags = 0
        for part in parts:
            flags |= flagged.get(part, 0)
        groups = _count_in(parts, self._digit_groups)
        rewritten = text
        if flags & _CONTEXT:
            lowered = text.lower()
            if patterns.SECRET_GATE.search(lowered) is not None:
                rewritten = self._secrets(rewritten, lowered)
            if patterns.STRUCTURE_GATE.search(lowered) is not None:
                rewritten = _structures(rewritten, lowered)
        if flags & _PHONE:
            rewritten = patterns.SPACED_PHONE.sub(_phone, rewritten)
        if groups >= 3:
            rewritten = patterns.GROUPED_CARD.sub(_grouped_card, rewritten)
        return rewritten

    def _lookup(self, word: str) -> tuple[str, str]:
        """(redaction, hook result) of a word, learning it when it is new."""
        hooked = self._seen.get(word)
        if hooked is None:
            return self._learn(word)
        return self._changed.get(word, word), hooked

    def _learn(self, word: str) -> tuple[str, str]:
        """Redact a word seen for the first time; remember it with its context flags and
        the word hook's result."""
        shape_hook: str | None = None
        equals = word.find("=")
        if word.isdigit():
            flags = _DIGIT_GROUP if 4 <= len(word) <= 7 else 0
            redacted = word
            if 13 <= len(word) <= 19 and patterns.luhn_valid(word):
                redacted = Placeholder.CARD.value
            else:
                shape_hook = self._digits_hook
        elif (
            0 < equals < len(word) - 1
            and word[equals + 1] != "="
            and _KEY(word, 0, equals) is not None
        ):
            return self._learn_pair(word, equals)
        elif "@" in word and _EMAIL_WORD(word) is not None:
            flags = _CONTEXT if _gated(word.lower()) else 0
            redacted = Placeholder.EMAIL.value
        elif "." in word and (address := _IPV4_WORD(word)) is not None:
            flags = 0
            redacted = Placeholder.IP.value + (address.group(2) or "")
        elif patterns.HEX_ID(word) is not None:
            flags = 0
            redacted = word
            if _HAS_DIGIT(word) is not None:
                shape_hook = self._digits_hook
        else:
            shape = word.translate(_ZERO_DIGITS)
            known = self._shapes.get(shape)
            if known is None:
                known = self._shape_of(shape)
                self._shapes[shape] = known
            plan, flags, shape_hook = known
            if plan:
                redacted = _apply(word, plan)
                if redacted is not word:
                    shape_hook = None
            else:
                redacted = word
        return self._remember(word, redacted, flags, shape_hook)

    def _learn_pair(self, word: str, equals: int) -> tuple[str, str]:
        """Learn a ``key=value`` word: the key says what the value is; the value is learned
        as a word of its own."""
        key = word[: equals + 1]
        kind = self._key_kinds.get(key)
        if kind is None:
            kind = _key_kind(key)
            self._key_kinds[key] = kind
        value = word[equals + 1 :]
        flags = 0
        if kind is _KeyKind.CONTEXT:
            flags = _CONTEXT
        elif kind is not _KeyKind.PLAIN:
            keyed = _keyed_value(kind, value)
            if keyed is not None:
                flags = _CONTEXT if keyed is value else 0
                return self._remember(word, key + keyed, flags, None)
        if value.isdigit() and len(value) < 13:
            found, value_hook = value, self._digits_hook
        else:
            found, value_hook = self._lookup(value)
            flags |= self._flagged.get(value, 0) & _CONTEXT
        redacted = word if found is value else key + found
        shape_hook = key + value_hook
        return self._remember(word, redacted, flags, shape_hook)

    def _remember(
        self, word: str, redacted: str, flags: int, shape_hook: str | None
    ) -> tuple[str, str]:
        self._memo_chars += len(word)
        if shape_hook is not None:
            hooked = shape_hook
        elif self._hook is not None:
            remembered = self._hooked_redactions.get(redacted)
            if remembered is None:
                remembered = self._hook(redacted)
                self._hooked_redactions[redacted] = remembered
            hooked = remembered
        else:
            hooked = ""
        self._seen[word] = hooked
        if redacted != word:
            self._changed[word] = redacted
        if flags & _DIGIT_GROUP:
            self._digit_groups[word] = True
        elif flags:
            self._flagged[word] = flags
        return redacted, hooked

    def _shape_of(self, shape: str) -> tuple[tuple[int, ...], int, str | None]:
        """(shape plan, context flags, the word hook's result for any unchanged word of this
        shape) — all independent of digit values."""
        flags = 0
        if _HAS_LETTER(shape) is not None and _gated(shape.lower()):
            flags = _CONTEXT
        if shape[:1] in ("+", "(") and _PHONE_START.match(shape) is not None:
            flags |= _PHONE
        plan = _plan(shape)
        hooked = None
        if self._hook is not None:
            hooked = self._hook(shape)
        return plan, flags, hooked

    def redact_value(self, key: str, value: JsonValue) -> JsonValue:
        """A structured field's value, redacted: wholly when its key names a credential."""
        if is_secret_key(key):
            if value is None or isinstance(value, bool):
                return value
            return _SECRET
        if isinstance(value, str):
            return self.redact(value)
        if isinstance(value, list):
            return [self.redact_value(key, item) for item in value]
        if isinstance(value, dict):
            return {name: self.redact_value(name, item) for name, item in value.items()}
        return value

    # --- words ------------------------------------------------------------------------

    # --- context ----------------------------------------------------------------------

    def _secrets(self, text: str, lowered: str) -> str:
        if "secret" in lowered and patterns.K8S_SECRET_KIND.search(text):
            text = patterns.K8S_JSON_DATA.sub(_k8s_json, text)
            text = patterns.K8S_YAML_DATA.sub(_k8s_yaml, text)
        if "authorization" in lowered:
            text = patterns.AUTH_HEADER_QUOTED.sub(_auth_quoted, text)
            text = patterns.AUTH_HEADER_UNQUOTED.sub(_auth_unquoted, text)
        if any(word in lowered for word in _SCHEME_WORDS):
            text = patterns.AUTH_SCHEME.sub(_auth_scheme, text)
        if "cookie" in lowered:
            text = patterns.COOKIE_HEADER.sub(_cookie, text)
        return self._pairs(text)

    def _pairs(self, text: str) -> str:
        if "=" in text or ":" in text:
            text = patterns.KEY_VALUE.sub(self._key_value, text)
        if "-" in text:
            text = patterns.FLAG_VALUE.sub(_flag, text)
        if "</" in text:
            text = patterns.XML_VALUE.sub(_xml, text)
        return text

    def _key_value(self, match: re.Match[str]) -> str:
        key = match.group("key")
        value = match.group("value")
        end = match.end()
        if end < len(match.string) and match.string[end] == "<":
            return match.group(0)
        if is_secret_key(key):
            return (
                match.group("key", "quote", "sep")[0]
                + match.group("quote")
                + (match.group("sep") + _secret_value(value))
            )
        if len(value) > 2 and ("=" in value or ":" in value):
            return match.group(0)[: match.start("value") - match.start()] + self._pairs(value)
        return match.group(0)


def _structures(text: str, lowered: str) -> str:
    if "-----begin" in lowered:
        text = patterns.PEM_PRIVATE_KEY.sub(_pem, text)
    if any(word in lowered for word in _SQL_WORDS):
        text = _sql(text)
    if "://" in lowered:
        text = patterns.URL_PASSWORD.sub(_url_password, text)
        text = patterns.SENTRY_KEY.sub(_SECRET, text)
    if "mysql" in lowered or "-u " in lowered or "--user" in lowered:
        text = patterns.CLI_CREDENTIALS.sub(_cli_credentials, text)
    if "pid" in lowered or "process" in lowered or "tid" in lowered:
        text = patterns.PID_CONTEXT.sub(_pid, text)
    if "host" in lowered or "node" in lowered or "fqdn" in lowered:
        text = patterns.HOST_CONTEXT.sub(_host, text)
    if "pod" in lowered:
        text = patterns.POD_CONTEXT.sub(_pod, text)
    return text


# --- word shapes ------------------------------------------------------------------------


def _count_in(parts: list[str], table: dict[str, bool]) -> int:
    return sum(1 for part in parts if part in table)


_ZERO_DIGITS: Final = str.maketrans("123456789", "000000000")
_THIRTEEN_ZEROS: Final = "0" * 13


def _redact_word(word: str) -> str:
    """A word with every shape found in it replaced (no context)."""
    plan = _plan(word.translate(_ZERO_DIGITS))
    return _apply(word, plan) if plan else word


def _plan(shape: str) -> tuple[int, ...]:
    """Which shape patterns can match a word, from its shape (the word with every digit made
    ``0``): every test here depends only on which characters are digits, never on their
    values, so words of one shape share one plan."""
    steps: list[int] = []
    if "://" in shape and "@" in shape:
        steps.extend((_URL, _SENTRY))
    if len(shape) >= 20:
        steps.append(_PREFIXED)
        if "Q~" in shape or ":AA" in shape:
            steps.append(_ODD)
        if len(shape) >= 32 and _LONG_HINT(shape) is not None:
            steps.append(_LONG)
    if "@" in shape:
        if _EMAIL_HINT(shape) is not None:
            steps.append(_EMAIL)
        if "/" in shape:
            steps.append(_EZCONNECT)
    if _MAC_HINT(shape) is not None:
        steps.append(_MAC)
    if "::" in shape or shape.count(":") >= 7:
        steps.append(_IPV6)
    if _IPV4_HINT(shape) is not None:
        steps.append(_IPV4)
    if ("." in shape or "ip-" in shape) and patterns.HOST_HINT.search(shape) is not None:
        steps.append(_HOST)
    if "-" in shape.rstrip(_TRAILING)[-6:-4]:
        steps.append(_POD)
    if _DASHED_HINT(shape) is not None:
        steps.append(_DASHED)
    if "[" in shape and "]:" in shape:
        steps.append(_SYSLOG)
    if _THIRTEEN_ZEROS in shape:
        steps.append(_CARD)
    return tuple(steps)


_LONG_HINT: Final = re.compile(r"[A-Za-z0-9+/_\-]{32}").search
_EMAIL_HINT: Final = re.compile(r"[A-Za-z0-9._%+\-]@[A-Za-z0-9\-]+\.").search
_MAC_HINT: Final = re.compile(
    r"[0-9A-Fa-f]{2}([:\-])[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}\1"
    r"|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}"
).search
_IPV4_HINT: Final = re.compile(r"\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}").search
_DASHED_HINT: Final = re.compile(r"\d{3}[\-.]\d{3}[\-.]\d{4}|\d{4}-\d{4,6}-\d{4}").search


def _apply(word: str, plan: tuple[int, ...]) -> str:
    redacted = word
    for step in plan:
        pattern, replace = _STEPS[step]
        redacted = pattern.sub(replace, redacted)
    return word if redacted == word else redacted


def _prefixed(match: re.Match[str]) -> str:
    start = match.start()
    if start > 0 and match.string[start - 1].isalnum():
        return match.group(0)
    kind = match.lastgroup
    if kind == "webhook":
        host, _, _ = match.group(0).partition("/")
        return host + "/" + _SECRET
    if kind == "jwt" and start > 0 and (match.string[start - 1] in "_-"):
        return match.group(0)
    return _SECRET


def _long_run(match: re.Match[str]) -> str:
    found = match.group(0)
    if "/" in found and _looks_like_path(found):
        return found
    return _SECRET if patterns.is_high_entropy(found.rstrip("=")) else found


def _looks_like_path(run: str) -> bool:
    if run.startswith("/"):
        return True
    return any(len(part) >= 3 and part.isalpha() and part.islower() for part in run.split("/"))


def _shape(match: re.Match[str]) -> str:
    kind = match.lastgroup
    found = match.group(0)
    if kind == "token":
        return _SECRET
    if kind == "email":
        return Placeholder.EMAIL.value
    if kind == "mac":
        return Placeholder.MAC.value
    if kind == "ipv6":
        if patterns.ipv6_continues(match.string, match.end()) or not _is_ipv6(found):
            return found
        return Placeholder.IP.value
    if kind == "ipv4":
        return Placeholder.IP.value
    if kind == "host":
        return Placeholder.HOST.value
    if kind == "pod":
        return Placeholder.POD.value
    if kind == "pid":
        return "[" + Placeholder.PID.value + "]"
    if kind == "card":
        start = match.start()
        if start > 0 and (match.string[start - 1].isalnum() or match.string[start - 1] in "_-+."):
            return found
        digits = found.replace("-", "")
        return Placeholder.CARD.value if patterns.luhn_valid(digits) else found
    if kind == "phone":
        return Placeholder.PHONE.value
    return found


def _is_ipv6(candidate: str) -> bool:
    address = candidate.strip("[]").split("%", 1)[0]
    if address.count(":") < 2 or ("::" not in address and address.count(":") != 7):
        return False
    try:
        ipaddress.IPv6Address(address)
    except ValueError:
        return False
    return True


# --- context replacements ---------------------------------------------------------------


def _secret_value(value: str) -> str:
    if value.startswith('\\"') and value.endswith('\\"') and len(value) >= 4:
        inner, quote = value[2:-2], '\\"'
    elif len(value) >= 2 and value[0] in "\"'" and value[-1] == value[0]:
        inner, quote = value[1:-1], value[0]
    else:
        inner, quote = value, ""
    if inner.strip().lower() in _KEEP_VALUES or inner.startswith("<"):
        return value
    if not quote and inner.lower() in _AUTH_SCHEMES:
        return value
    return quote + _SECRET + quote


def _secret(_: re.Match[str]) -> str:
    return _SECRET


def _pem(match: re.Match[str]) -> str:
    kind = match.group(1) or ""
    block = match.group(2) or ""
    return (
        f"-----BEGIN {kind}PRIVATE KEY{block}-----{_SECRET}-----END {kind}PRIVATE KEY{block}-----"
    )


def _k8s_json(match: re.Match[str]) -> str:
    inner = re.sub(r"(\"[^\"]+\"\s*:\s*)\"[^\"]*\"", r"\1\"" + _SECRET + '"', match.group(2))
    return match.group(1) + inner + match.group(3)


def _k8s_yaml(match: re.Match[str]) -> str:
    inner = re.sub(r"(?m)^([ \t]+[\w.\-]+:[ \t]*)\S.*$", r"\1" + _SECRET, match.group(2))
    return match.group(1) + inner


def _sql(text: str) -> str:
    statement = patterns.SQL_STATEMENT.search(text)
    if statement is None:
        return text
    start = statement.start()
    tail = patterns.SQL_STRING.sub(Placeholder.SQL_LITERAL.value, text[start:])
    tail = patterns.SQL_NUMBER.sub(Placeholder.SQL_LITERAL.value, tail)
    return text[:start] + tail


def _auth_quoted(match: re.Match[str]) -> str:
    scheme = match.group(3) or ""
    if not match.group(4):
        return match.group(0)
    return match.group(1) + match.group(2) + scheme + _SECRET + match.group(5)


def _auth_unquoted(match: re.Match[str]) -> str:
    credentials = match.group(3)
    if credentials.startswith("<"):
        return match.group(0)
    if credentials.lower().startswith("digest"):
        return match.group(1) + "Digest " + _SECRET
    return match.group(1) + (match.group(2) or "") + _SECRET


def _auth_scheme(match: re.Match[str]) -> str:
    scheme, space, credentials = match.group(1), match.group(2), match.group(3)
    if scheme.lower() != "bearer" and not _credential_shaped(credentials):
        return match.group(0)
    return scheme + space + _SECRET


def _credential_shaped(word: str) -> bool:
    has_digit = any(char.isdigit() for char in word)
    has_upper = any(char.isupper() for char in word)
    has_lower = any(char.islower() for char in word)
    return has_digit or word.endswith("=") or (has_upper and has_lower and len(word) >= 12)


def _cookie(match: re.Match[str]) -> str:
    pieces = []
    for piece in match.group(2).split(";"):
        name, equals, value = piece.partition("=")
        if equals and value.strip() and name.strip().lower() not in _COOKIE_ATTRIBUTES:
            pieces.append(name + "=" + _SECRET)
        else:
            pieces.append(piece)
    return match.group(1) + ";".join(pieces)


def _url_password(match: re.Match[str]) -> str:
    if match.group("password").startswith("<"):
        return match.group(0)
    return match.group("scheme") + match.group("user") + ":" + _SECRET + "@"


def _cli_credentials(match: re.Match[str]) -> str:
    if match.group("mysql") is not None:
        return match.group("mysql") + _SECRET
    return match.group("curl") + _SECRET


def _ezconnect(match: re.Match[str]) -> str:
    if match.group("pw").startswith("<"):
        return match.group(0)
    return match.group("user") + "/" + _SECRET + "@"


def _pid(match: re.Match[str]) -> str:
    return match.group(1) + match.group(2) + Placeholder.PID.value


def _host(match: re.Match[str]) -> str:
    return match.group(1) + match.group(2) + Placeholder.HOST.value


def _pod(match: re.Match[str]) -> str:
    return match.group(1) + match.group(2) + Placeholder.POD.value


def _flag(match: re.Match[str]) -> str:
    if not is_secret_key(match.group("flag")) or match.group("value").startswith("-"):
        return match.group(0)
    return match.group("flag") + match.group("sep") + _secret_value(match.group("value"))


def _xml(match: re.Match[str]) -> str:
    if not is_secret_key(match.group("tag")):
        return match.group(0)
    tag = match.group("tag")
    return f"<{tag}>{_SECRET}</{tag}>"


def _grouped_card(match: re.Match[str]) -> str:
    start = match.start()
    text = match.string
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_.-+"):
        return match.group(0)
    digits = "".join(char for char in match.group(0) if char.isdigit())
    return Placeholder.CARD.value if patterns.luhn_valid(digits) else match.group(0)


def _phone(match: re.Match[str]) -> str:
    start = match.start()
    text = match.string
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_+"):
        return match.group(0)
    digits = sum(1 for char in match.group(0) if char.isdigit())
    return Placeholder.PHONE.value if 8 <= digits <= 15 else match.group(0)


_PREFIXED, _ODD, _LONG, _EMAIL, _EZCONNECT, _MAC, _IPV6, _IPV4, _HOST, _POD, _DASHED = range(11)
_SYSLOG, _CARD, _URL, _SENTRY = 11, 12, 13, 14
_STEPS: Final[tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...]] = (
    (patterns.PREFIXED_SECRETS, _prefixed),
    (patterns.ODD_PREFIXED_SECRETS, _shape),
    (patterns.LONG_RUN, _long_run),
    (patterns.EMAIL, _shape),
    (patterns.EZCONNECT, _ezconnect),
    (patterns.MAC, _shape),
    (patterns.IPV6, _shape),
    (patterns.IPV4, _shape),
    (patterns.HOST, _shape),
    (patterns.POD, _shape),
    (patterns.DASHED_NUMBER, _shape),
    (patterns.SYSLOG_PID, _shape),
    (patterns.CARD_DIGITS, _shape),
    (patterns.URL_PASSWORD, _url_password),
    (patterns.SENTRY_KEY, _secret),
)
"""The shape patterns in the order they run, with what replaces a match."""
