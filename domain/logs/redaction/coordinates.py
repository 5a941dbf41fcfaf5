"""Geographic coordinates, where a person or a device was: a latitude or a longitude under its
name (``"lat":48.091330``, ``lon=12.338044``, ``longitude: -71.39``), a pair after a word
naming a place (``pos=39.21345,-2.46996``, ``location: …``, ``latlng=…``) or in a ``geo:``
URI, and the position fields of an NMEA sentence (``$GPRMC``, ``$GPGGA``, ``$GPGLL``:
``5230.4738,N,01324.7900,E``).

A coordinate goes with four decimals or more (about ten metres): fewer say a region, not a
place, and a name alone is not enough for a number with fewer (``lat=12ms`` is a latency).
A latitude must lie within ±90 and a longitude within ±180.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["COORDINATES"]

_LOCATION: Final = Placeholder.LOCATION.value
_DEGREES: Final = r"-?\d{1,3}\.\d{4,}"
_NAMED: Final = re.compile(
    r"(?i)(?<![\w\-])([\"']?(?:lat|latitude|lon|lng|long|longitude)[\"']?[ \t]*[:=][ \t]*[\"']?)"
    r"(" + _DEGREES + r")(?![\d.])"
)
_PAIR: Final = re.compile(
    r"(?i)(?<![\w\-])((?:[\"']?(?:pos|position|location|loc|coords?|coordinates|latlng|latlon"
    r"|latlong|ll|gps)[\"']?[ \t]*[:=][ \t]*[\"'\[(]?)|geo:)"
    r"(" + _DEGREES + r")[ \t]*,[ \t]*(" + _DEGREES + r")(?![\d.])"
)
_NMEA: Final = re.compile(
    r"(\$G[PNLAB](?:RMC|GGA|GLL|GNS),[^*\s]*?)(\d{4}\.\d+),([NS]),(\d{5}\.\d+),([EW])"
)
_NAMES: Final = frozenset(
    {"lat", "latitude", "lon", "lng", "long", "longitude", "pos", "position", "location"}
    | {"loc", "coord", "coords", "coordinates", "latlng", "latlon", "latlong", "gps"}
)
_STRIP: Final = "\"'{[(,:= "
_QUOTED: Final = re.compile(r"[a-z]+").findall


def _gate(shape: str) -> bool:
    """A word whose key is a name of a coordinate or a place (``lat=``, ``"lon":``, a
    ``key=`` word's key), a quoted JSON word holding one, a ``geo:`` URI or an NMEA
    sentence: a set test, as in ``named_numbers``."""
    if shape[:2] == "$G" or "geo:" in shape:
        return True
    if '"' in shape:
        return len(shape) > 5 and not _NAMES.isdisjoint(_QUOTED(shape.lower()))
    head = shape.split("=", 1)[0] if "=" in shape else shape
    if len(head) > 14:
        return False
    return head.lower().strip(_STRIP) in _NAMES


def _within(value: str, limit: int) -> bool:
    return abs(float(value)) <= limit


def _named(match: re.Match[str]) -> str:
    name = match.group(1).strip("\"' \t:=").lower()
    limit = 90 if name.startswith("lat") else 180
    return match.group(1) + _LOCATION if _within(match.group(2), limit) else match.group(0)


def _pair(match: re.Match[str]) -> str:
    if not (_within(match.group(2), 90) and _within(match.group(3), 180)):
        return match.group(0)
    return match.group(1) + _LOCATION


def _nmea(match: re.Match[str]) -> str:
    return f"{match.group(1)}{_LOCATION},{match.group(3)},{_LOCATION},{match.group(5)}"


def _apply(text: str) -> str:
    text = _PAIR.sub(_pair, text)
    text = _NAMED.sub(_named, text)
    return _NMEA.sub(_nmea, text) if "$G" in text else text


_PROBE: Final = re.compile(r"\d\.\d{3}|\$g").search
"""A number with three decimals or more (four for a coordinate, three in NMEA's minutes), or
an NMEA sentence."""


def _cue(shape: str) -> bool:
    """A word holding a number with four decimals or more (what a coordinate needs), or an
    NMEA sentence (its minutes may have three)."""
    return "0.0000" in shape or shape.startswith("$G")


COORDINATES: Final = TextFamily(
    name="geographic coordinates after their name, in a geo: URI or an NMEA sentence",
    gate=_gate,
    cue=_cue,
    probe=lambda lowered: _PROBE(lowered) is not None,
    apply=_apply,
)
