"""Vendor keys by two more shapes than ``key_shapes`` reads, the body random by its check:

* a prefix, an environment and a body: ``<letters>_(live|test|prod|sandbox|dev|stage)_<body>``
  (Razorpay's ``rzp_live_…``, ``rzp_test_…``, and any vendor's alike) with a body of 10 or more
  letters and digits that mixes both (or 12 or more letters of both cases) and carries at
  least 3 bits a character, shorter than a
  body ``key_shapes`` needs, since the environment word says it is a key; the prefix stays;
* a short lower-case prefix ending in a digit and a long random body in one word: NuGet's
  ``oy2`` and 43 base-32 characters, and ``<2-4 letters><digit><28 or more letters and
  digits>`` when the whole is random (``key_shapes.random_body``: no hex, no ULID).

A test name (``rzp_test_suite``), a hex digest, a word without digits and an SSH key's
fingerprint (``SHA256:`` and its digest's exact length) stay.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import WordFamily
from factledger.domain.logs.redaction.key_shapes import entropy, fingerprint, random_body
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["STAGED_KEYS"]

_SECRET: Final = Placeholder.SECRET.value
_STAGES: Final = r"live|test|prod|production|sandbox|dev|stage|staging"
_PATTERN: Final = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:"
    r"(?P<prefix>[A-Za-z][A-Za-z0-9]{1,11}_(?:" + _STAGES + r")_)(?P<body>[A-Za-z0-9]{10,})"
    r"|(?P<nuget>oy2[a-z2-7]{43})"
    r"|(?P<short>[A-Za-z]{2,4}[0-9][A-Za-z0-9]{28,})"
    r")(?![A-Za-z0-9])"
)
_HINT: Final = re.compile(
    r"_(?:" + _STAGES + r")_[A-Za-z0-9]{10}|(?<![A-Za-z0-9])[A-Za-z]{2,4}0[A-Za-z0-9]{28}"
).search


def _staged(body: str) -> bool:
    has_digit = any(char.isdigit() for char in body)
    has_letter = any(char.isalpha() for char in body)
    mixed_case = body.lower() != body and body.upper() != body
    if not ((has_digit and has_letter) or (mixed_case and len(body) >= 12)):
        return False
    return entropy(body) >= 3.0


def _replace(match: re.Match[str]) -> str:
    if match.group("nuget") is not None:
        return _SECRET
    body = match.group("body")
    if body is not None:
        return match.group("prefix") + _SECRET if _staged(body) else match.group(0)
    short = match.group("short")
    if fingerprint(match.string, match.start(), short) or not random_body(short):
        return short  # an SSH key's ``SHA256:`` digest names a key without opening anything
    return _SECRET


STAGED_KEYS: Final = WordFamily(
    name="vendor keys with an environment word, NuGet keys and short-prefixed random keys",
    hint=lambda shape: len(shape) >= 14 and _HINT(shape) is not None,
    pattern=_PATTERN,
    replace=_replace,
)
