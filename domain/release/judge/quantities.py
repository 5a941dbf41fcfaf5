"""Numbers with their units, converted before they are compared.

Durations go to milliseconds (ms, s, seconds, min, h), sizes to bytes (B, KB, KiB, MB, GiB,
...; a decimal and a binary multiple are both tried; ``2Gi``, as Kubernetes writes it, is
2 GiB), money to cents ("$27,077.90", ``amount_cents``), percentages stay percentages. A
number of a claim is grounded when the evidence holds it (after conversion) or when it is a
sum, difference, ratio or percentage of two numbers of the evidence, or a total of them,
within the rounding the claim is written with.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations

from attrs import frozen

from factledger.domain.release.judge.instants import blank_times

__all__ = [
    "MEASURED",
    "Quantity",
    "claim_quantities",
    "close",
    "derived",
    "holds",
    "key_unit",
    "swapped_magnitude",
    "text_quantities",
]

_UNITS: dict[str, tuple[str, tuple[float, ...]]] = {}
for _names, _dim, _factors in (
    ("ms msec msecs millisecond milliseconds", "time", (1.0,)),
    ("s sec secs second seconds", "time", (1000.0,)),
    ("min mins minute minutes", "time", (60_000.0,)),
    ("h hr hrs hour hours", "time", (3_600_000.0,)),
    ("d day days", "time", (86_400_000.0,)),
    ("week weeks", "time", (604_800_000.0,)),
    ("us µs microsecond microseconds", "time", (0.001,)),
    ("b byte bytes", "size", (1.0,)),
    ("kb kilobyte kilobytes", "size", (1e3, 1024.0)),
    ("kib ki", "size", (1024.0,)),
    ("mb megabyte megabytes", "size", (1e6, 1024.0**2)),
    ("mib mi", "size", (1024.0**2,)),
    ("gb gigabyte gigabytes", "size", (1e9, 1024.0**3)),
    ("gib gi", "size", (1024.0**3,)),
    ("tb terabyte terabytes", "size", (1e12, 1024.0**4)),
    ("tib ti", "size", (1024.0**4,)),
    ("% percent pct", "percent", (1.0,)),
    ("cent cents", "money", (1.0,)),
    ("$ usd dollar dollars", "money", (100.0,)),
):
    for _name in _names.split():
        _UNITS[_name] = (_dim, _factors)

_UNIT_ALT = "|".join(sorted((re.escape(u) for u in _UNITS if u != "$"), key=len, reverse=True))
_NUMBER = re.compile(
    r"(\d(?<![\w.\-/#]\d)(?:\d{0,2}(?:,\d{3})+(?:\.\d+)?|\d*(?:\.\d+)?))"
    r"(?:\s?(" + _UNIT_ALT + r")(?!\w))?(?!\w|\.\d)",
    re.IGNORECASE,
)
"""A number (``1,024``, ``2.5``) not inside a word or a version, with the unit written after
it. It begins with the digit it matches, so a scan skips to digits: "no word character,
dot, dash, slash or hash before it" is checked over that digit and the character before it."""
_DIGIT = re.compile(r"\d")
MEASURED = frozenset({"time", "size", "money"})
"""Dimensions of measurements: a ratio of two is no longer one, a series is summed only on
purpose."""
_FREE_PAIRS = 8
"""Up to this many values, any two may be combined without the claim writing either."""
_KEY_UNIT = re.compile(
    r"(?:^|_)(ms|millis|seconds|secs|sec|s|bytes|kb|kib|mb|mib|gb|gib|tb|tib|pct|percent|"
    r"cents|usd)$"
)
_SIZE_PER_TIME = re.compile(
    r"(?:^|_)(?:(bytes|kb|kib|mb|mib|gb|gib|tb)_)?per_?(?:sec(?:ond)?|s|min(?:ute)?|h(?:ou)?r|day)$"
)
"""A rate in a field's name: its values are of the size before it (``apply_mb_per_sec``: MB),
never of the unit of time it is per (``jobs_per_sec`` is a count)."""
_ABOUT = re.compile(
    r"\b(about|around|roughly|approximately|approx|nearly|almost|some|~)\s*$", re.IGNORECASE
)
_ATLEAST = re.compile(r"\b(more\s+than|over|above|at\s+least|exceed\w*)\s*$", re.IGNORECASE)
_ATMOST = re.compile(r"\b(less\s+than|fewer\s+than|under|below|at\s+most)\s*$", re.IGNORECASE)
_KEY_BEFORE = re.compile(r"([A-Za-z_]+)[=:]$")
"""The field name right before a value (``waited_ms=``)."""


@frozen
class Quantity:
    """One number with its unit."""

    value: float
    """As written."""
    dimension: str | None
    """``time``, ``size``, ``percent`` or None (a plain count)."""
    base: tuple[float, ...]
    """The value in ms, bytes or percent (one per reading of its unit)."""
    text: str = ""
    decimals: int = 0
    bound: str = "="
    """``=``, ``about``, ``>=`` (more than) or ``<=`` (less than), from the words before."""
    scale: float = 1.0
    """The factor from the unit it is written in to ``value``'s unit (a quantity converted to
    bytes keeps the rounding of "2.3 GiB")."""


def _quantity(number: str, unit: str | None, text: str = "", bound: str = "=") -> Quantity:
    value = float(number.replace(",", ""))
    decimals = len(number.split(".")[1]) if "." in number else 0
    if unit is None:
        return Quantity(value, None, (value,), text, decimals, bound)
    dimension, factors = _UNITS[unit.lower()]
    return Quantity(value, dimension, tuple(value * f for f in factors), text, decimals, bound)


@lru_cache(maxsize=1024)
def key_unit(key: str) -> str | None:
    """The unit a field name carries (``waited_ms`` → ms), if any."""
    rate = _SIZE_PER_TIME.search(key.lower())
    if rate is not None:
        return rate.group(1)
    found = _KEY_UNIT.search(key.lower())
    if found is None:
        return None
    unit = found.group(1)
    return {"millis": "ms", "pct": "%", "percent": "%"}.get(unit, unit)


_DENIED = re.compile(
    r"\b(?:(?:never|not|no)\b(?:\s+\w+){0,3}|none\s+of(?:\s+[\w-]+){1,6})\s*$", re.IGNORECASE
)
"""A denial before a bound: "never went above 79", "none of the 4 runs took more than 90 s"."""


def _bound(prefix: str, wider: str = "") -> str:
    if (_ATLEAST.search(prefix) or _ATMOST.search(prefix)) and _DENIED.search(
        _ATLEAST.sub("", _ATMOST.sub("", wider))
    ):
        return "="  # "never went above 79": the peak, as written
    if _ATLEAST.search(prefix):
        return ">="
    if _ATMOST.search(prefix):
        return "<="
    return "about" if _ABOUT.search(prefix) else "="


_LARGER = r"hours?|hrs?|h|minutes?|mins?|min"
_SMALLER = r"minutes?|mins?|min|seconds?|secs?|sec|s"
_COMPOUND = re.compile(
    rf"\b(?P<big>an?|one|\d+)\s+(?P<bigunit>{_LARGER})\s+(?:and\s+)?"
    rf"(?P<small>\d+)\s+(?P<unit>{_SMALLER})(?!\w)"
    rf"|\b(?P<whole>\d+)\s+and\s+a\s+half\s+(?P<halfunit>{_LARGER}|{_SMALLER})(?!\w)",
    re.IGNORECASE,
)
"""A duration in two parts ("an hour and 42 minutes", "2 h 5 min") or with a half ("32 and a
half minutes"): one quantity in its smaller unit (102 minutes, 32.5 minutes)."""


def _compound(m: re.Match[str], bound: str) -> Quantity:
    if m["whole"] is not None:
        return _quantity(f"{m['whole']}.5", m["halfunit"], m[0], bound)
    larger = float(m["big"]) if m["big"][0].isdigit() else 1.0
    ratio = _UNITS[m["bigunit"].lower()][1][0] / _UNITS[m["unit"].lower()][1][0]
    return _quantity(f"{larger * ratio + float(m['small']):g}", m["unit"], m[0], bound)


def _unit(m: re.Match[str], text: str) -> str | None:
    """The unit written after the number, or a currency sign before it (``$27,077.90``)."""
    if m[2] is None and m.start() > 0 and text[m.start() - 1] == "$":
        return "$"
    return m[2]


def claim_quantities(text: str) -> tuple[tuple[Quantity, int], ...]:
    """Every number of a claim (times already masked out) with its unit, its bound and
    where it starts; a duration in two parts is one quantity."""
    found: list[tuple[Quantity, int]] = []
    taken: list[tuple[int, int]] = []
    for m in _COMPOUND.finditer(text):
        prefix = text[max(0, m.start() - 16) : m.start()]
        wider = text[max(0, m.start() - 72) : m.start()]
        found.append((_compound(m, _bound(prefix, wider)), m.start()))
        taken.append((m.start(), m.end()))
    for m in _NUMBER.finditer(text):
        if any(start <= m.start() < end for start, end in taken):
            continue
        prefix = text[max(0, m.start() - 16) : m.start()]
        wider = text[max(0, m.start() - 72) : m.start()]
        unit = _unit(m, text)
        found.append((_quantity(m[1], unit, m[0].strip(), _bound(prefix, wider)), m.start()))
    return tuple(sorted(found, key=lambda item: item[1]))


@lru_cache(maxsize=8192)
def text_quantities(text: str) -> tuple[Quantity, ...]:
    """Every number of evidence text, with the unit written after it or in its key
    (``waited_ms=2000``); remembered by text (the same excerpt or log line comes back in
    many calls of a run)."""
    if _DIGIT.search(text) is None:
        return ()
    text = blank_times(text)
    found: list[Quantity] = []
    for m in _NUMBER.finditer(text):
        unit = _unit(m, text)
        if unit is None and m.start() > 0 and text[m.start() - 1] in "=:":
            key = _KEY_BEFORE.search(text[max(0, m.start() - 40) : m.start()])
            unit = key_unit(key.group(1)) if key else None
        found.append(_quantity(m[1], unit))
    return tuple(found)


def _close(claimed: float, found: float, claim: Quantity, scale: float = 1.0) -> bool:
    """True when ``found`` is ``claimed`` within the claim's rounding (``scale``: the factor
    from the claim's unit to the unit both are in) or its bound."""
    if claim.bound == ">=":
        return found >= claimed
    if claim.bound == "<=":
        return found <= claimed
    unit = scale * claim.scale
    tolerance = 0.5 * 10.0 ** (-claim.decimals) * unit if claim.value != 0 else 1e-9
    if claim.bound == "about":
        tolerance = max(tolerance, abs(claimed) * 0.05)
    return abs(claimed - found) <= tolerance + 1e-9


def close(claimed: float, found: float, claim: Quantity, scale: float = 1.0) -> bool:
    """True when ``found`` is ``claimed`` within the claim's rounding or bound."""
    return _close(claimed, found, claim, scale)


def holds(claim: Quantity, found: Quantity) -> bool:
    """True when ``found`` is the claimed quantity (same dimension, units converted; a
    number without a unit in the evidence matches its value in any unit)."""
    if found.dimension is None:
        return _close(claim.value, found.value, claim)
    if claim.dimension != found.dimension:
        return claim.dimension is None and _close(claim.value, found.value, claim)
    scale = claim.base[0] / claim.value if claim.value else 1.0
    return any(_close(a, b, claim, scale) for a in claim.base for b in found.base)


_SCALES: dict[str, tuple[float, ...]] = {
    "time": (1.0, 1000.0, 60_000.0, 3_600_000.0, 86_400_000.0),
    "size": (1.0, 1e3, 1024.0, 1e6, 1024.0**2, 1e9, 1024.0**3, 1e12, 1024.0**4),
    "money": (1.0, 100.0),
}
"""The units a measurement is commonly read in, as factors from ms or bytes."""


def swapped_magnitude(claim: Quantity, found: Sequence[Quantity]) -> bool:
    """True when the claim's measurement is one of the evidence's read in another unit
    (``3000ms`` written "3 minutes", ``2 GiB`` written "2 MB") and none of the evidence's
    measurements of that dimension is the claimed one."""
    if claim.dimension not in _SCALES:
        return False
    same = [q for q in found if q.dimension == claim.dimension]
    if any(holds(claim, q) for q in same):
        return False
    return any(
        _close(claim.value, base / scale, claim)
        for q in same
        for base in q.base
        for scale in _SCALES[claim.dimension]
    )


def derived(
    claim: Quantity,
    values: Sequence[float],
    shown: Sequence[float] | None = None,
    total: bool = True,
) -> bool:
    """True when the claimed number is a total, sum, difference, ratio or percentage of
    numbers in ``values`` (within the claim's rounding).

    A measurement (a duration, a size) is never a ratio of two measurements, and is the
    total of a series only when ``total`` (the claim says it sums them): 60 statements of
    4.98 s are not "4.98 minutes".

    Among many values (a series), a number computed from two of them needs one written in
    ``shown``, the claim's other numbers ("from 3 to 46, an increase of 43"): a small number
    is not taken for a chance ratio of a long series. A percentage beside numbers of the
    evidence the claim writes ("546 of its 566 requests, about 96%") is computed from one of
    them, never from two other small values; a plain count is never a percentage."""
    target = claim.value
    measured = claim.dimension in MEASURED
    if len(values) > 1 and (total or not measured) and _close(target, sum(values), claim):
        return True
    pairs: Iterable[tuple[float, float]] = combinations(values, 2)
    anchors = set(shown or ())
    share = claim.dimension == "percent" and bool(anchors & set(values))
    if shown is not None and (len(values) > _FREE_PAIRS or share):
        pairs = ((a, b) for a, b in combinations(values, 2) if a in anchors or b in anchors)
    for a, b in pairs:
        candidates = [a + b, abs(a - b)]
        if a and b and not measured:
            candidates += [a / b, b / a]
            if claim.dimension == "percent":
                candidates += [100 * a / b, 100 * b / a, 100 * a / (a + b), 100 * b / (a + b)]
                candidates += [100 * abs(a - b) / a, 100 * abs(a - b) / b]
        if any(_close(target, c, claim) for c in candidates):
            return True
    return False
