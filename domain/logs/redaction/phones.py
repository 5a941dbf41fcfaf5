"""Telephone numbers in national formats: a trunk ``0`` and an area code, then groups
(``020 7946 0958``, ``06 12 34 56 78``, ``030/1234567``, ``030-1234567``, ``(030)1234567``,
``06.12.34.56.78``) with 10 or 11 digits in all (12 after a German mobile trunk, ``0176
12345678``), in one word or several. International
numbers (``+44 20 7946 0958``, ``+14155552671``; with ``00`` for the ``+``, ``0049 30 1234567``,
here) and the North American ``(415) 555-2671`` /
``415-555-2671`` forms are caught by the context and shape patterns; a number alone
(``02079460958``) is not, as ids have that shape too."""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["NATIONAL_PHONES"]

_PHONE: Final = Placeholder.PHONE.value
_CPF_SHAPE: Final = re.compile(r"\d{3}\.\d{3}\.\d{3}-\d{2}").fullmatch
"""Brazil's CPF as written (``012.345.678-90``): never a phone, even when it starts with a
trunk ``0``; ``checked_numbers`` masks it when its check digits hold, else it stays (a tag)."""
_NATIONAL: Final = re.compile(
    r"(?<![\w.+\-/:])(?:\(0\d{1,4}\)[ ]?|0\d{1,4}[ .\-/]|00[1-9]\d{0,2}[ .\-]\d{1,4}[ .\-])"
    r"\d{2,8}(?:[ .\-]\d{2,8}){0,3}(?![\w.\-/:]|,\d)"
)


def _national(match: re.Match[str]) -> str:
    found = match.group(0)
    if _CPF_SHAPE(found) is not None:
        return found
    digits = sum(1 for char in found if char.isdigit())
    if found.startswith("00") and found[2:3].isdigit() and found[2] != "0":
        return _PHONE if 11 <= digits <= 17 else found  # 00 and a country code: international
    if digits == 12 and _MOBILE_TRUNK(found) is not None:
        return _PHONE  # a German mobile: 015x, 016x, 017x and eight digits
    return _PHONE if 10 <= digits <= 11 else found


_MOBILE_TRUNK: Final = re.compile(r"\(?01[5-7]\d\)?[ .\-/]").match


_LONE_TRUNK: Final = re.compile(r"(?<![\w.+\-/:])(?:\(0\d{1,4}\)|0\d{1,4})$").search
"""A word ending in a trunk and area code (``030``, ``(030)``, ``[030``): the number goes on in
the next word."""


def _may_start(shape: str) -> bool:
    """True when a word (or a word of this shape) may start a national number: it ends in a
    trunk and area code, or the number's pattern matches in it (``030/1234567``,
    ``(030)1234567``, ``06.12.34.56.78``, ``030/123`` before ``4567``). On a shape the pattern
    reads the trunk ``0`` as any digit, so a shape passes where any word of it may; a slashed
    date (``12/05/2026``) fails even so, a separator after its second group being no
    phone's. On the word itself (``confirm``) the trunk is read as written, and a dotted or
    dashed date (``2005.06.03``, ``2015-10-18``) fails."""
    if "0" not in shape:
        return False  # both read a trunk 0 (a shape's digits are all 0)
    return _LONE_TRUNK(shape) is not None or _NATIONAL.search(shape) is not None


NATIONAL_PHONES: Final = TextFamily(
    name="national telephone numbers",
    gate=_may_start,
    confirm=_may_start,
    probe=lambda lowered: "0" in lowered,
    apply=lambda text: _NATIONAL.sub(_national, text),
)
