"""Redaction by shape: a value found by its own form (an IP address, ``AKIA…``, a JWT, a
Luhn-valid card number), one word at a time.

A word's *shape* is the word with every digit made ``0``. Which patterns can match depends
only on the shape, so a plan (the patterns to run) is decided once per shape; the patterns
themselves then run on the word.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import Final

from factledger.domain.logs.redaction import patterns
from factledger.domain.logs.redaction.context import ezconnect, secret, url_password
from factledger.domain.logs.redaction.key_shapes import fingerprint
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.registry import WORD_FAMILIES

__all__ = [
    "EMAIL_WORD",
    "HAS_DIGIT",
    "IPV4_SHAPE",
    "IPV4_WORD",
    "ZERO_DIGITS",
    "Plan",
    "apply_plan",
    "is_local_address",
    "names_version",
    "plan_for",
    "redact_word",
    "shape_of",
]

_SECRET: Final = Placeholder.SECRET.value
_TO_CARD: Final = Placeholder.CARD.value
_TO_EMAIL: Final = Placeholder.EMAIL.value
_TO_HOST: Final = Placeholder.HOST.value
_TO_IP: Final = Placeholder.IP.value
_TO_MAC: Final = Placeholder.MAC.value
_TO_PHONE: Final = Placeholder.PHONE.value
_TO_PID: Final = Placeholder.PID.value
_TO_POD: Final = Placeholder.POD.value
_TRAILING: Final = ",;:.)]}'\">"
_DIGIT_RUN3: Final = re.compile(r"\d{3}[\-.]").search
_OCTET: Final = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
IPV4_WORD: Final = re.compile(r"(" + _OCTET + r"(?:\." + _OCTET + r"){3})(:\d{1,5})?").fullmatch
"""A word that is exactly an IPv4 address, maybe with a port."""
IPV4_SHAPE: Final = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?").fullmatch
"""``IPV4_WORD`` with every octet read as any one to three digits: a word whose shape fails
it is no IPv4 address."""
EMAIL_WORD: Final = re.compile(
    r"[A-Za-z0-9._%+\-]+(?:'[A-Za-z0-9._%+\-]+)*@[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}"
).fullmatch
"""A word that is exactly an e-mail address."""
HAS_DIGIT: Final = re.compile(r"\d").search

ZERO_DIGITS: Final = str.maketrans("123456789", "000000000")
_ZERO_BYTES: Final = bytes.maketrans(b"123456789", b"000000000")
_THIRTEEN_ZEROS: Final = "0" * 13


def shape_of(word: str) -> str:
    """The word with every ASCII digit made ``0`` (``word.translate(ZERO_DIGITS)``; an ASCII
    word goes through ``bytes.translate``, several times faster than a ``str`` table)."""
    if word.isascii():
        return word.encode().translate(_ZERO_BYTES).decode()
    return word.translate(ZERO_DIGITS)


def redact_word(word: str) -> str:
    """A word with every shape found in it replaced (no context)."""
    plan = plan_for(shape_of(word))
    return apply_plan(word, plan) if plan else word


Plan = tuple[tuple[int, bool], ...]
"""The shape patterns to run on a word, in order, each with whether it may match the word as
written: one that may not (its exact test on the shape fails) runs only once an earlier
pattern changed the word."""


def plan_for(shape: str) -> Plan:
    """Which shape patterns can match a word, from its shape (the word with every digit made
    ``0``): every test here depends only on which characters are digits, never on their
    values, so words of one shape share one plan."""
    steps: list[tuple[int, bool]] = []
    if "://" in shape and "@" in shape:
        steps.extend(((_URL, True), (_SENTRY, True)))
    if len(shape) >= 20:
        if _PREFIXED_HINT(shape) is not None:
            steps.append((_PREFIXED, True))
        if "Q~" in shape or ":AA" in shape:
            steps.append((_ODD, True))
        if len(shape) >= 32 and _LONG_HINT(shape) is not None:
            steps.append((_LONG, True))
    if "@" in shape:
        if _EMAIL_HINT(shape) is not None:
            steps.append((_EMAIL, True))
        if "/" in shape:
            steps.append((_EZCONNECT, True))
    if _MAC_HINT(shape) is not None:
        steps.append((_MAC, True))
    if "::" in shape or shape.count(":") >= 7 or (shape.count(":") == 6 and "." in shape):
        steps.append((_IPV6, True))
    if _IPV4_HINT(shape) is not None:
        steps.append((_IPV4, _IPV4_AS_WRITTEN(shape) is not None))
    if ("." in shape or "ip-" in shape) and patterns.HOST_HINT.search(shape) is not None:
        steps.append((_HOST, True))
    if "-" in shape.rstrip(_TRAILING)[-6:-4]:
        steps.append((_POD, True))
    if _DASHED_HINT(shape) is not None:
        steps.append((_DASHED, True))
    if "[" in shape and "]:" in shape:
        steps.append((_SYSLOG, True))
    if _THIRTEEN_ZEROS in shape:
        steps.append((_CARD, _CARD_AS_WRITTEN(shape) is not None))
    for step, family in _FAMILY_STEPS:
        if family.hint(shape):
            steps.append((step, family.as_written is None or family.as_written(shape)))
    while steps and not steps[0][1]:
        del steps[0]  # nothing before it changes the word, so it would never run
    return tuple(steps)


_PREFIXED_HINT: Final = re.compile(r"[$\{]|[A-Za-z]{2}").search
"""Every alternative of ``PREFIXED_SECRETS`` starts with ``$``, ``{`` or two letters (a
timestamp or a number of 20 characters skips it)."""
_LONG_HINT: Final = re.compile(r"[A-Za-z0-9+/_\-]{32}").search
_URL_PASSWORD_BEFORE: Final = re.compile(r"://[^/@\s]*:\Z").search
"""What stands before a URL's password (``https://<SECRET>:x-oauth-basic@github.com``): the
password and host there are no e-mail address; the URL rule has judged the password."""
_EMAIL_HINT: Final = re.compile(r"[A-Za-z0-9._%+\-]@[A-Za-z0-9\-]+\.").search
_MAC_HINT: Final = re.compile(
    r"[0-9A-Fa-f]{2}([:\-])[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}\1"
    r"|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}"
    r"|(?<![\w:])[0-9A-Fa-f]{1,2}(?::[0-9A-Fa-f]{1,2}){5}(?![\w:])"
).search
_IPV4_HINT: Final = re.compile(r"\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}").search
_DASHED_HINT: Final = re.compile(r"\d{3}[\-.]\d{3}[\-.]\d{4}|\d{4}[\-.]\d{4,6}[\-.]\d{4}").search
_IPV4_AS_WRITTEN: Final = re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w]|\.\d)").search
"""``patterns.IPV4`` with every octet as any one to three digits: it matches a shape exactly
where that pattern may match the word (a timestamp's ``17.45.55.674418`` never)."""
_CARD_AS_WRITTEN: Final = re.compile(r"(?<![\w\-+.])\d{13,19}(?![\w.])").search
"""``patterns.CARD_DIGITS`` with the character before it that ``_shape`` refuses (``blk_-…``,
``id_…`` never)."""


def apply_plan(word: str, plan: Plan) -> str:
    redacted = word
    for step, as_written in plan:
        if not as_written and redacted == word:
            continue
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
    if fingerprint(match.string, match.start(), found):
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
        return found if _URL_PASSWORD_BEFORE(match.string, 0, match.start()) else _TO_EMAIL
    if kind == "mac":
        return _TO_MAC
    if kind == "ipv6":
        continues = not found.endswith("]") and patterns.ipv6_continues(match.string, match.end())
        if continues or not _is_ipv6(found):
            return found
        return _TO_IP
    if kind == "ipv4":
        if is_local_address(found) or _VERSION_BEFORE(match.string, 0, match.start()):
            return found
        return _TO_IP
    if kind == "host":
        return found if _names_a_path(match) else _TO_HOST
    if kind == "pod":
        return _TO_POD
    if kind == "pid":
        return "[" + _TO_PID + "]"
    if kind == "card":
        start = match.start()
        if start > 0 and (match.string[start - 1].isalnum() or match.string[start - 1] in "_-+."):
            return found
        digits = found.replace("-", "").replace(".", "")
        return _TO_CARD if patterns.luhn_valid(digits) else found
    if kind == "phone":
        return _TO_PHONE
    return found


_VERSION_BEFORE: Final = re.compile(
    r"(?i)(?:^|[^a-z])(?:version|ver|vsn|release|build)[\"']?[ \t]*[:=][ \t]*[\"']?$"
).search
"""A dotted number named as a version inside one word (``{"agent_version":"7.52.1.1"}``) is
no address."""


def names_version(key: str) -> bool:
    """True for a ``key=`` naming a version (``agent_version=``, ``driver.ver=``): a value
    named as a version is never an address, whatever its dots."""
    return _VERSION_BEFORE(key) is not None


_PUBLIC_KEYS: Final = frozenset({"boundary=", "integrity="})
"""Keys whose value is public by what it is: a multipart body's delimiter, a Subresource
Integrity digest (however random they look)."""


def names_public_value(key: str) -> bool:
    """True for a ``key=`` whose value is public whatever its shape (``boundary=``)."""
    return key.lower() in _PUBLIC_KEYS


def _names_a_path(match: re.Match[str]) -> bool:
    """True for a host that begins the name of an image, a package or a label
    (``registry.gitlab.com/acme/api:2.3.1``, ``github.com/acme/auth``,
    ``kubernetes.io/service-account-token``): first in its word, no scheme, user or port,
    and a path after it. Such a name says what runs, not where to connect."""
    start, end, word = match.start(), match.end(), match.string
    if word[end : end + 1] != "/" or not word[end + 1 : end + 2].isalnum():
        return False
    return start == 0 or word[:start] in ("'", '"', "(", "[")


def is_local_address(address: str) -> bool:
    """True for an IPv4 address that names no machine but the one logging: a loopback
    address (``127.0.0.1``) or the unspecified one (``0.0.0.0``, listening on every
    interface). Which of the two a server binds is often the diagnosis itself."""
    return address.startswith("127.") or address == "0.0.0.0"


def _is_ipv6(candidate: str) -> bool:
    address = candidate.strip("[]").split("%", 1)[0]
    full = 6 if "." in address else 7  # an IPv4 address in place of the last two groups
    if address.count(":") < 2 or ("::" not in address and address.count(":") != full):
        return False
    try:
        ipaddress.IPv6Address(address)
    except ValueError:
        return False
    return True


# --- context replacements ---------------------------------------------------------------


_PREFIXED, _ODD, _LONG, _EMAIL, _EZCONNECT, _MAC, _IPV6, _IPV4, _HOST, _POD, _DASHED = range(11)
_SYSLOG, _CARD, _URL, _SENTRY, _FAMILIES = 11, 12, 13, 14, 15
_STEPS: Final[tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...]] = (
    (patterns.PREFIXED_SECRETS, _prefixed),
    (patterns.ODD_PREFIXED_SECRETS, _shape),
    (patterns.LONG_RUN, _long_run),
    (patterns.EMAIL, _shape),
    (patterns.EZCONNECT, ezconnect),
    (patterns.MAC, _shape),
    (patterns.IPV6, _shape),
    (patterns.IPV4, _shape),
    (patterns.HOST, _shape),
    (patterns.POD, _shape),
    (patterns.DASHED_NUMBER, _shape),
    (patterns.SYSLOG_PID, _shape),
    (patterns.CARD_DIGITS, _shape),
    (patterns.URL_PASSWORD, url_password),
    (patterns.SENTRY_KEY, secret),
    *((family.pattern, family.replace) for family in WORD_FAMILIES),
)
"""The shape patterns in the order they run, with what replaces a match (the word families
of the registry last)."""
_FAMILY_STEPS: Final = tuple(enumerate(WORD_FAMILIES, start=_FAMILIES))
