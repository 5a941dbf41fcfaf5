"""Numbers written as words: their values and the quantities they write with a unit.

"three" is 3, "a dozen" 12, "twice" 2, "half" 0.5; "one" and "a" are no values here ("one
of", "a minute"). A spelled number before a unit ("five minutes", "three-hour") is that
quantity.
"""

from __future__ import annotations

import re
from typing import Final

from attrs import evolve

from factledger.domain.release.judge.quantities import Quantity, text_quantities

__all__ = [
    "ANY_SPELLED",
    "NAMES",
    "SPELLED",
    "UNIT",
    "WITH_UNIT",
    "spelled_quantities",
    "spelled_value",
]

SPELLED: Final = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100,
    "a dozen": 12, "dozen": 12, "a hundred": 100,
}  # fmt: skip
"""Spelled numbers read as values ("one" and "a" are left out: "one of", "a minute")."""
NAMES: Final = "|".join(sorted((n.replace(" ", r"\s+") for n in SPELLED), key=len, reverse=True))
UNIT: Final = (
    r"(?:milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|"
    r"bytes?|kilobytes?|megabytes?|gigabytes?|terabytes?|kb|mb|gb|tb|kib|mib|gib|percent)"
)
WITH_UNIT: Final = re.compile(rf"\b({NAMES})(?:\s+|-)(?=({UNIT})\b)", re.IGNORECASE)
"""A spelled number before a unit; the unit (group 2) is looked ahead at, not taken."""
ANY_SPELLED: Final = re.compile(rf"\b(?:{NAMES}|twice|half)\b")
"""Any spelled number."""
SPELLED_WORDS: Final = frozenset([*(name.split()[-1] for name in SPELLED), "twice", "half"])
"""The words that end a spelled number: a cheap first test on a claim's words."""


def spelled_value(word: str) -> float | None:
    """The value of a spelled number ("three", "a dozen", "twice"), if it is one."""
    low = " ".join(word.lower().split())
    if low == "twice":
        return 2.0
    if low == "half":
        return 0.5
    found = SPELLED.get(low)
    return float(found) if found is not None else None


def spelled_quantities(text: str) -> tuple[tuple[Quantity, int], ...]:
    """Every spelled number with a unit of ``text`` ("five minutes", "a dozen seconds") as
    the quantity it writes, with where it starts."""
    if not ANY_SPELLED.search(text.lower()):
        return ()
    found: list[tuple[Quantity, int]] = []
    for m in WITH_UNIT.finditer(text):
        value = spelled_value(m.group(1))
        if value is None:
            continue
        quantity = next(iter(text_quantities(f"{value:g} {m.group(2)}")), None)
        if quantity is not None:
            found.append((evolve(quantity, text=text[m.start() : m.end(2)]), m.start()))
    return tuple(found)
