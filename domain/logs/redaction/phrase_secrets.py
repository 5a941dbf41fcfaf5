"""Secrets of several words, and one-time codes, after the words that name them.

* **Phrases** (``passphrase: correct horse battery staple``, ``mnemonic: abandon …``,
  ``seed_phrase = "…"``, ``security answer: …``, ``Enter PEM pass phrase: …``): after a
  phrase noun and ``:``, ``=``, ``is`` or a quote, the quoted value or the rest of the line goes
  (an earlier family may have replaced its first word already). A value that only says how
  the phrase stands (``not set``, ``none``, ``incorrect``) stays; a noun followed by anything
  else (``passphrase for key …``, ``passphrase_min_words=4``) names no value.
* **One-time codes** (``verification code is 739201``, ``OTP code 482913``, ``recovery codes:
  8f3k-2m9p x7q1-4z8w``): after a code noun with a qualifier that makes it a credential
  (verification, one-time, 2FA, recovery, activation …), each following word shaped like a
  code (4 to 12 letters and digits, in dash groups, with a digit) goes. ``error code 500``,
  ``exit code 137`` and ``status code 404`` have no such qualifier.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["ONE_TIME_CODES", "SECRET_PHRASES"]

_SECRET: Final = Placeholder.SECRET.value
_NOUN: Final = (
    r"pass[ _\-]?phrase|mnemonic(?:[ _\-]?(?:phrase|words?))?|(?:seed|recovery|secret|backup)"
    r"[ _\-](?:phrase|words)|(?:security|secret)[ _\-](?:question[ _\-])?answer"
    r"|memorable[ _\-](?:word|information)"
)
_PHRASE: Final = re.compile(
    r"(?i)(?<![\w\-])(" + _NOUN + r")([\"']?[ \t]*(?:[:=]|[ \t]is(?!\w)|[ \t](?=[\"']))[ \t]*)"
    r"(\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'][^\n]*)"
)
_STATUS_WORDS: Final = frozenset(
    {
        "not",
        "set",
        "unset",
        "none",
        "null",
        "empty",
        "required",
        "provided",
        "missing",
        "enabled",
        "disabled",
        "changed",
        "accepted",
        "rejected",
        "incorrect",
        "invalid",
        "wrong",
        "bad",
        "ok",
        "expired",
        "true",
        "false",
        "yes",
        "no",
        "n/a",
        "(none)",
        "protected",
        "is",
        "was",
        "ignored",
    }
)


def _status(value: str) -> bool:
    """True when a value only says how the phrase stands (``not set``), or is a number of
    words (``4 words``) or a mask (``****``)."""
    words = value.lower().strip(" \t.,;").split()
    if not words or set(value.strip()) <= set("*"):
        return True
    return all(word in _STATUS_WORDS or word.isdigit() for word in words) or (
        len(words) == 2 and words[0].isdigit() and words[1] in ("words", "characters", "chars")
    )


def _phrase(match: re.Match[str]) -> str:
    value = match.group(3)
    quoted = value[0] in "\"'"
    core = value[1:-1] if quoted else value.rstrip()
    rest = core.replace(_SECRET, " ").strip()
    if not rest or _status(rest) or rest.startswith("<"):
        return match.group(0)
    replaced = value[0] + _SECRET + value[0] if quoted else _SECRET + value[len(core) :]
    return match.group(1) + match.group(2) + replaced


_PHRASE_CUES: Final = re.compile(r"phrase|mnemonic|answer|memorable|recovery|seed|backup").search


def _phrase_gate(shape: str) -> bool:
    return _PHRASE_CUES(shape.lower()) is not None


SECRET_PHRASES: Final = TextFamily(
    name="passphrases, mnemonics and security answers after their noun",
    gate=_phrase_gate,
    probe=lambda lowered: _PHRASE_CUES(lowered) is not None,
    apply=lambda text: _PHRASE.sub(_phrase, text),
)

_QUALIFIERS: Final = (
    "verification",
    "verify",
    "confirmation",
    "one-time",
    "one time",
    "onetime",
    "otp",
    "totp",
    "hotp",
    "2fa",
    "mfa",
    "two-factor",
    "recovery",
    "backup",
    "activation",
    "pairing",
    "login",
    "sign-in",
    "signin",
    "security",
    "sms",
    "email",
    "access",
    "unlock",
    "puk",
    "pin",
    "sim",
    "door",
    "alarm",
)
_CODE: Final = r"(?=[A-Za-z0-9\-]*\d)[A-Za-z0-9]{2,12}(?:-[A-Za-z0-9]{2,12}){0,3}"
_CODES: Final = re.compile(
    r"(?i)(?<![\w\-])((?:"
    + "|".join(re.escape(word) for word in _QUALIFIERS)
    + r")[ \t_\-]+(?:(?:one-time|sms|email|otp)[ \t_\-]+)?(?:code|codes|pin|passcode|otp)"
    r"[\"']?(?:[ \t]*[:=#][ \t]*|[ \t]+(?:is|was|are)[ \t]+|[ \t]+))"
    r"((?:" + _CODE + r")(?:[ \t,]+(?:" + _CODE + r"))*)(?![\w\-])"
)
_ONE_CODE: Final = re.compile(_CODE)


def _codes(match: re.Match[str]) -> str:
    codes = match.group(2)
    replaced = _ONE_CODE.sub(
        lambda one: _SECRET if sum(c.isalnum() for c in one.group()) >= 4 else one.group(),
        codes,
    )
    return match.group(1) + replaced


_CODE_WORD: Final = re.compile(r"(?:codes?|pin|passcode|otp)(?:[\"':=#,].*)?").fullmatch


def _codes_gate(shape: str) -> bool:
    """A code noun alone, or with its value after ``:``/``=`` (``code=00000``)."""
    return _CODE_WORD(shape.lower()) is not None


ONE_TIME_CODES: Final = TextFamily(
    name="one-time, verification and recovery codes after their name",
    gate=_codes_gate,
    probe=lambda lowered: "code" in lowered or "pin" in lowered or "otp" in lowered,
    apply=lambda text: _CODES.sub(_codes, text),
)
