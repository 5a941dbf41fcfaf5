"""Redaction by context: a value found by what surrounds it (``password=…``,
``Authorization: Bearer …``, ``redis://:…@``, a PEM block, a SQL statement, ``pid=…``).

These patterns run over a whole text, and only when one of its words may start one (see
``word_gate``); the values they find are replaced, keys and structure kept.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction import patterns
from factledger.domain.logs.redaction.auth_headers import (
    is_auth_scheme,
    keeps_scheme,
    redact_authorization,
)
from factledger.domain.logs.redaction.call_arguments import calls_code, is_credential_call
from factledger.domain.logs.redaction.credential_phrases import password_shaped
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.secret_keys import is_secret_key, is_switch
from factledger.domain.logs.redaction.value_shapes import WEAK_WORDS, is_stand_in, keeps_value

__all__ = [
    "ezconnect",
    "grouped_card",
    "phone",
    "redact_secrets",
    "redact_structures",
    "secret",
    "secret_value",
    "url_password",
]

_KEEP_VALUES: Final = frozenset(
    {"", "null", "none", "true", "false", "nil", "undefined", "***", "****", "*****", "[redacted]"}
)
_COOKIE_ATTRIBUTES: Final = frozenset(
    {"path", "domain", "expires", "max-age", "samesite", "secure", "httponly", "priority"}
)
_SQL_WORDS: Final = ("select", "insert", "update", "delete", "replace")
_SECRET: Final = Placeholder.SECRET.value
_CARD: Final = Placeholder.CARD.value
_HOST: Final = Placeholder.HOST.value
_PHONE: Final = Placeholder.PHONE.value
_PID: Final = Placeholder.PID.value
_POD: Final = Placeholder.POD.value
_SQL_LITERAL: Final = Placeholder.SQL_LITERAL.value


def redact_secrets(text: str, lowered: str) -> str:
    """Credentials named by a key, header, scheme, cookie or Kubernetes Secret."""
    if "secret" in lowered and patterns.K8S_SECRET_KIND.search(text):
        text = patterns.K8S_JSON_DATA.sub(_k8s_json, text)
        text = patterns.K8S_YAML_DATA.sub(_k8s_yaml, text)
    text = redact_authorization(text, lowered)
    if "cookie" in lowered:
        text = patterns.COOKIE_HEADER.sub(_cookie, text)
    return _pairs(text)


def _pairs(text: str) -> str:
    if "=" in text or ":" in text or "<-" in text or "->" in text:
        text = _key_values(text)
    if "-" in text:
        text = patterns.FLAG_VALUE.sub(_flag, text)
    if "</" in text:
        text = patterns.XML_VALUE.sub(_xml, text)
    return text


def _url_user(text: str, start: int) -> bool:
    """True when the key starts right after a scheme's ``://``: it is the user of a URL
    (``https://x-token-auth:TOKEN@host/r``), whose password the URL rule replaces, leaving
    the host and path. A URL's value is read again on its own (``https:`` a key), so its
    ``//`` may start the text."""
    before = text[max(0, start - 3) : start]
    return before == "://" or (start == 2 and before == "//")


def _key_values(text: str) -> str:
    """Every ``key<sep>value`` of a text, the value replaced when the key names a credential.

    When the value after a plain key is itself followed by a separator, it is a key: scanning
    resumes at it (``headers: X-Api-Key: …``)."""
    pieces: list[str] = []
    position = 0
    search = patterns.KEY_VALUE.search
    while (match := search(text, position)) is not None:
        value = match.group("value")
        end = match.end()
        if _PLACEHOLDER_AT(text, end) is not None:
            pieces.append(text[position:end])
            position = end
            continue
        key = match.group("key")
        if keeps_scheme(key, value, text, end) or _url_user(text, match.start("key")):
            pieces.append(text[position:end])
            position = end
            continue
        if value == "$" and (braced := _BRACED(text, end)) is not None:
            value, end = "$" + braced.group(0), braced.end()
        if (
            is_secret_key(key)
            and not keeps_value(key, value)
            and not _verdict(match)
            and key.lower() not in _COOKIE_HEADERS
            and not _names_a_field(key, value)
            and not _named_thing(text, value, end)
        ):
            pieces.append(text[position : match.start("value")])
            end = _value_end(match, key, end)
            pieces.append(secret_value(text[match.start("value") : end]))
            position = end
            continue
        if _FIELD(value) is not None:
            pieces.append(text[position : match.start("value")])
            position = match.start("value")
            continue
        if _quoted_key(value) and _KEY_START(text, end) is not None:
            pieces.append(text[position : match.start("value") + 1])
            position = match.start("value") + 1
            continue
        if _FOLLOWED_BY_SEPARATOR(text, end) is not None:
            pieces.append(text[position : match.start("value")])
            position = match.start("value")
            continue
        pieces.append(text[position : match.start("value")])
        if len(value) > 2 and ("=" in value or ":" in value):
            pieces.append(_pairs(value))
        else:
            pieces.append(value)
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _names_a_field(key: str, value: str) -> bool:
    """True when a key that names a subsystem (``auth:``, ``session:``, ``token:``) is followed
    by a field of its own (``auth: token_ttl_seconds=3600``): the field is read as a pair."""
    return key.lower() in WEAK_WORDS and _FIELD(value) is not None


_FIELD: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*=(?!=)").match


def _named_thing(text: str, value: str, end: int) -> bool:
    """True when the value is the kind of a named object (``volume "creds" : secret
    "tls-certs" not found``: a credential word before a quoted name is no credential), or a
    call that takes the password by position (``auth=HTTPBasicAuth("ci", …)``), whose
    arguments ``call_arguments`` judges."""
    if text[end : end + 1] == "(":
        return is_credential_call(value) or calls_code(text, value, end)
    return value.lower() in _KINDS and _QUOTED_NAME(text, end) is not None


_KINDS: Final = frozenset({"secret", "secrets", "token", "tokens", "credential", "credentials"})
_QUOTED_NAME: Final = re.compile(r"[ \t]+[\"'][\w.\-/]+[\"']").match


def _verdict(match: re.Match[str]) -> bool:
    """True for a test runner's ``PASS: TestX`` (Go's ``--- PASS: TestX (0.02s)``): the
    verdict of a test named after what it tests, not FTP's password command."""
    if match.group("key") != "PASS":
        return False
    text, start = match.string, match.start()
    return (
        text[max(0, start - 4) : start] in ("--- ", "=== ")
        or _TEST_NAME(text, match.start("value")) is not None
    )


_TEST_NAME: Final = re.compile(r"Test\w*(?:/\S*)?(?:[ \t]+\(\d[\d.]*m?s\))?(?!\S)").match


def _quoted_key(value: str) -> bool:
    """True for a quoted ``'KEY='`` whose value follows the closing quote."""
    return len(value) > 3 and value[0] in "'\"" and value[-2] in "=:" and value[-1] == value[0]


_KEY_START: Final = re.compile(r"[^\s\"',;]").match
_BRACED: Final = re.compile(r"\{[^{}\s]{1,120}\}").match
"""The rest of a ``${NAME}`` reference after its ``$`` (a value never holds braces)."""


def _value_end(match: re.Match[str], key: str, end: int) -> int:
    """Where a credential's value ends: at the next white space after a flag's key or a
    spaced separator cut by code punctuation, after the next word when the value is a YAML
    tag (``pass: !!binary …``, ``token: !vault …``), else where the pattern ended."""
    text = match.string
    spaced = match.group("sep") != match.group("sep").strip()
    if key.startswith("-") or (spaced and text[end : end + 1] in _CUT_CHARACTERS):
        rest = _TO_SPACE(text, end)
        return end if rest is None else rest.end()
    if match.group("value")[:1] == "!" and (tagged := _TAGGED(text, end)) is not None:
        return tagged.end()
    return end


_TAGGED: Final = re.compile(r"[ \t]+(?![|>]\s*$)[^\s]+").match
"""The word after a YAML tag (not a block scalar's ``|`` or ``>``, which the lines after
hold)."""
_TO_SPACE: Final = re.compile(r"[^\s]+").match
"""The rest of a command-line flag's value (``--password=a&b``: a flag's value ends at a
space, not at URL punctuation), and of a value after a spaced separator (``password: a&b``,
``secret = a(b``: a configuration value ends at a space)."""
_CUT_CHARACTERS: Final = frozenset("&|()[]<>")
"""Characters that end a value inside a URL or a call but not after a spaced separator."""
_FOLLOWED_BY_SEPARATOR: Final = re.compile(r"[ \t]*[:=]").match
_PLACEHOLDER_AT: Final = re.compile(r"<[A-Z_]{2,12}>").match


def redact_structures(text: str, lowered: str) -> str:
    """Private keys, SQL literals, URL and command-line passwords, pids, hosts and pods
    found by what surrounds them."""
    if "-----begin" in lowered:
        text = patterns.PEM_PRIVATE_KEY.sub(_pem, text)
    if any(word in lowered for word in _SQL_WORDS):
        text = _sql(text)
    if "://" in lowered:
        text = patterns.URL_PASSWORD.sub(url_password, text)
        text = patterns.SENTRY_KEY.sub(secret, text)
    if "mysql" in lowered or "-u " in lowered or "--user" in lowered:
        text = patterns.CLI_CREDENTIALS.sub(_cli_credentials, text)
    if "pid" in lowered or "process" in lowered or "tid" in lowered:
        text = patterns.PID_CONTEXT.sub(_pid, text)
    if "host" in lowered or "node" in lowered or "fqdn" in lowered:
        text = patterns.HOST_CONTEXT.sub(_host, text)
    if "pod" in lowered:
        text = patterns.POD_CONTEXT.sub(_pod, text)
    return text


def secret_value(value: str) -> str:
    """A credential value replaced, its quotes kept (an empty or masked value stays)."""
    if value.startswith('\\"') and value.endswith('\\"') and len(value) >= 4:
        inner, quote = value[2:-2], '\\"'
    elif len(value) >= 2 and value[0] in "\"'" and value[-1] == value[0]:
        inner, quote = value[1:-1], value[0]
    else:
        inner, quote = value, ""
    if inner.strip().lower() in _KEEP_VALUES or inner.startswith("<") or is_stand_in(inner):
        return value
    if not quote and is_auth_scheme(inner):
        return value
    return quote + _SECRET + quote


def secret(_: re.Match[str]) -> str:
    """Any match → ``<SECRET>``."""
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
    tail = patterns.SQL_STRING.sub(_SQL_LITERAL, text[start:])
    tail = patterns.SQL_NUMBER.sub(_SQL_LITERAL, tail)
    return text[:start] + tail


def _cookie(match: re.Match[str]) -> str:
    header, rest = match.group(2), ""
    if (field := _NEXT_FIELD(header, 1)) is not None:
        header, rest = header[: field.start()], header[field.start() :]
    pieces = []
    for piece in header.split(";"):
        name, equals, value = piece.partition("=")
        if equals and value.strip() and name.strip().lower() not in _COOKIE_ATTRIBUTES:
            plain = _PLAIN_COOKIE(value.strip()) is not None and not is_secret_key(name.strip())
            pieces.append(piece if plain or value.startswith("<") else name + "=" + _SECRET)
        else:
            pieces.append(piece)
    return match.group(1) + ";".join(pieces) + rest


_NEXT_FIELD: Final = re.compile(r"(?<![;,])[ \t]+(?=[A-Za-z_][\w.\-]*=)").search
"""Where a header logged inline ends: a space not after ``;`` before the next ``key=``
(``Cookie: sid=… trace_id=…``); cookies are joined by ``; ``."""


_PLAIN_COOKIE: Final = re.compile(
    r"[a-z]{1,10}|[a-z]{2}(?:[-_][A-Za-z]{2})?|[A-Z][a-z]+(?:(?:/|%2F)[A-Z][A-Za-z_]+)+|\d{1,3}|[A-Z]{3}"
).fullmatch
"""A cookie value that is a setting, not a session (``theme=dark``, ``lang=de-DE``,
``tz=Europe/Berlin``, ``consent=1``): kept under a name that names no credential."""
_COOKIE_HEADERS: Final = frozenset({"cookie", "set-cookie", "cookies"})
"""Header names whose values the cookie rule reads one by one."""


def url_password(match: re.Match[str]) -> str:
    """``scheme://user:<SECRET>@``; a token written as the user goes too
    (``https://<token>:x-oauth-basic@``, or a user of 20+ letters and digits)."""
    user, password = match.group("user"), match.group("password")
    if password.lower() in _TOKEN_PASSWORDS:
        return match.group("scheme") + _SECRET + ":" + password + "@"
    if _TOKEN_USER(user) is not None:
        return match.group("scheme") + _SECRET + ":" + _SECRET + "@"
    if password.startswith("<"):
        return match.group(0)
    return match.group("scheme") + user + ":" + _SECRET + "@"


_TOKEN_PASSWORDS: Final = frozenset({"x-oauth-basic", "x-oauth-token"})
"""Passwords that say the user is a token (GitHub's ``https://<token>:x-oauth-basic@``)."""
_TOKEN_USER: Final = re.compile(r"(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{20,}").fullmatch


def _cli_credentials(match: re.Match[str]) -> str:
    if match.group("mysql") is not None:
        return match.group("mysql") + _SECRET
    password = match.group("userpw")
    if is_stand_in(password) or (password.isdigit() and match.group("curl")[-2:-1].isdigit()):
        return match.group(0)  # a reference, or a user and group id (``-u 1000:1000``)
    if (
        match.group("curl").endswith(":")
        and not password_shaped(password)
        and _HTTP_CLIENT(match.string, 0, match.start()) is None
    ):
        return match.group(0)  # a user and a group (``sudo -u app:www-data``)
    return match.group("curl") + _SECRET


_HTTP_CLIENT: Final = re.compile(r"(?i)\b(?:curl|wget|https?|httpie|xh|lftp)\b").search


def ezconnect(match: re.Match[str]) -> str:
    """``user/<SECRET>@//host``."""
    if match.group("pw").startswith("<"):
        return match.group(0)
    return match.group("user") + "/" + _SECRET + "@"


def _pid(match: re.Match[str]) -> str:
    return match.group(1) + match.group(2) + _PID


def _host(match: re.Match[str]) -> str:
    return match.group(1) + match.group(2) + _HOST


def _pod(match: re.Match[str]) -> str:
    return match.group(1) + match.group(2) + _POD


def _flag(match: re.Match[str]) -> str:
    flag, value = match.group("flag"), match.group("value")
    if not is_secret_key(flag) or value.startswith("-") or keeps_value(flag, value):
        return match.group(0)
    if is_switch(flag):
        return match.group(0)
    return match.group("flag") + match.group("sep") + secret_value(match.group("value"))


def _xml(match: re.Match[str]) -> str:
    if not is_secret_key(match.group("tag")):
        return match.group(0)
    tag = match.group("tag")
    return f"<{tag}>{_SECRET}</{tag}>"


def grouped_card(match: re.Match[str]) -> str:
    """A grouped card number → ``<CARD>`` when it passes Luhn."""
    start = match.start()
    text = match.string
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_.-+"):
        return match.group(0)
    digits = "".join(char for char in match.group(0) if char.isdigit())
    return _CARD if patterns.luhn_valid(digits) else match.group(0)


def phone(match: re.Match[str]) -> str:
    """A telephone number → ``<PHONE>`` when its digit count fits."""
    start = match.start()
    text = match.string
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_+"):
        return match.group(0)
    digits = sum(1 for char in match.group(0) if char.isdigit())
    return _PHONE if 8 <= digits <= 15 else match.group(0)
