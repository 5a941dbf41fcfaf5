"""Values found inside one word that the other shape patterns do not spell.

* **Cards written with slashes or underscores** (``4111/1111/1111/1111``,
  ``3782/822463/10005``, ``5500_0000_0000_0004``), Luhn checked with a card issuer's prefix,
  never inside a path or a name (no ``/`` or word character before or after).
* **Track data after a card number** (``;4111…=2512101…?``, ``<CARD>=2812201…``): the
  expiry, service code and discretionary data after ``=`` go with the number.
* **Keys of a listed vendor whose body is hex or lower case** (random-looking bodies of this
  kind fail the entropy test of ``key_shapes``): Databricks ``dapi``/``dose`` + 32 hex,
  Braintree ``access_token$production$…$…``, Mailgun ``key-`` + 32 letters and digits,
  Mailchimp's 32 hex and its data centre (``…-us21``).
* **Values masked by a CI runner command** (``::add-mask::…``): the value is a secret by
  the command's definition.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import WordFamily
from factledger.domain.logs.redaction.patterns import luhn_valid
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["CI_MASKED", "HEX_VENDOR_KEYS", "SLASHED_CARDS", "TRACK_DATA"]

_CARD: Final = Placeholder.CARD.value
_SECRET: Final = Placeholder.SECRET.value
_SLASHED: Final = re.compile(
    r"(?<![\w/])(?:\d{4}(?P<s>[/_])\d{4}(?P=s)\d{4}(?P=s)\d{1,7}"
    r"|\d{4}(?P<a>[/_])\d{6}(?P=a)\d{4,5})(?![\w/])"
)
_SLASHED_HINT: Final = re.compile(r"0{4}(?P<s>[/_])0{4,6}(?P=s)0{4}").search


def _slashed(match: re.Match[str]) -> str:
    return _CARD if luhn_valid(match.group().replace("/", "").replace("_", "")) else match.group()


SLASHED_CARDS: Final = WordFamily(
    name="card numbers written with slashes or underscores (Luhn)",
    hint=lambda shape: ("/" in shape or "_" in shape) and _SLASHED_HINT(shape) is not None,
    pattern=_SLASHED,
    replace=_slashed,
)

_TRACK: Final = re.compile(r"(?<![\w])(<CARD>|\d{13,19})=(\d{4,40})(\?)?")


def _track(match: re.Match[str]) -> str:
    number = match.group(1)
    if number != _CARD and not luhn_valid(number):
        return match.group()
    return _CARD + "=" + _SECRET + (match.group(3) or "")


TRACK_DATA: Final = WordFamily(
    name="magnetic track data after a card number",
    hint=lambda shape: "=" in shape and "0000000000000=0000" in shape,
    pattern=_TRACK,
    replace=_track,
)

_HEX_VENDOR: Final = re.compile(
    r"(?<![A-Za-z0-9])(?:(?:dapi|dose)[0-9a-f]{32}(?:-\d)?"
    r"|access_token\$(?:production|sandbox|development)\$[0-9a-z]{16}\$[0-9a-f]{24,32}"
    r"|key-[0-9a-z]{32}|[0-9a-f]{32}-us\d{1,2})(?![A-Za-z0-9])"
)
_HEX_VENDOR_HINT: Final = re.compile(r"dapi|dose|access_token\$|key-|-us0").search


def _hex_vendor(match: re.Match[str]) -> str:
    value = match.group()
    if value.startswith("key-") and not any(char.isdigit() for char in value[4:]):
        return value
    return _SECRET


HEX_VENDOR_KEYS: Final = WordFamily(
    name="listed vendor keys with a hex or lower-case body",
    hint=lambda shape: len(shape) >= 36 and _HEX_VENDOR_HINT(shape) is not None,
    pattern=_HEX_VENDOR,
    replace=_hex_vendor,
)

_MASKED: Final = re.compile(r"(?:::add|<IP>)-mask::(?P<masked>[^\s\"'<][^\s\"']*)")
"""The command, also as the IPv6 pattern left it (``::add`` is an address's spelling)."""

CI_MASKED: Final = WordFamily(
    name="values given to a CI runner's masking command",
    hint=lambda shape: "::add-mask::" in shape,
    pattern=_MASKED,
    replace=lambda match: (
        match.group()[: match.start("masked") - match.start()].replace("<IP>", "::add") + _SECRET
    ),
)
