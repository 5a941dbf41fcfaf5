"""Corpus families of person fields in HL7 v2 segments, German mobile numbers and numbers
written with ``00`` for the ``+``, and IPv4 addresses written as one number or with
four-digit octal parts where a URL names its host; and the look-alikes that stay (other HL7
segments, twelve-digit numbers without a mobile trunk, numbers in a URL's path, loopback and
unspecified addresses, while a private address beside one still goes)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from tests.support import redaction_values as make

Maker = Callable[[random.Random], str]

_SURNAMES: Final = ("NAKAMURA", "OKAFOR", "LINDQVIST", "BERGER", "ALVES", "KOWALCZYK")
_GIVEN: Final = ("AIKO", "CHIDI", "MARTA", "LUC", "INES", "TOMASZ")


def _digits(rng: random.Random, size: int) -> str:
    return make.text(rng, make.DIGITS, size)


def _hl7_person(rng: random.Random) -> str:
    name = f"{make.choice(rng, _SURNAMES)}^{make.choice(rng, _GIVEN)}"
    segment = make.choice(rng, ("PID", "NK1", "GT1", "IN1"))
    birth = f"19{rng.randrange(30, 99)}{rng.randrange(1, 13):02d}{rng.randrange(1, 29):02d}"
    record = _digits(rng, rng.randrange(6, 10))
    if segment == "PID":
        return f"PID|1||\x1f{record}^^^MRN||{name}||{birth}|{make.choice(rng, 'FMU')}"
    return f"{segment}|1|\x1f{name}|{record}|||{birth}"


def _mobile(rng: random.Random) -> str:
    trunk = make.choice(rng, ("0151", "0152", "0160", "0162", "0171", "0176", "0179"))
    return f"{trunk} {_digits(rng, 8)}" if rng.randrange(2) else f"{trunk}/{_digits(rng, 8)}"


def _double_zero(rng: random.Random) -> str:
    forms = (("0049", "170", 7), ("0033", "6", 8), ("0031", "20", 7), ("0044", "7700", 6))
    country, area, rest = forms[rng.randrange(len(forms))]
    return f"{country} {area} {_digits(rng, rest)}"


def _url_number_host(rng: random.Random) -> str:
    address = rng.randrange(0x01000000, 0xFFFFFFFF)
    form = rng.randrange(3)
    if form == 0:
        return str(address)
    if form == 1:
        return f"0x{address:08X}" if rng.randrange(2) else f"0x{address:x}"
    parts = address.to_bytes(4, "big")
    return ".".join(f"0{part:03o}" for part in parts)


def _private_address(rng: random.Random) -> str:
    first = make.choice(rng, ("10", "172.16", "192.168", "100.64"))
    rest = ".".join(str(rng.randrange(1, 255)) for _ in range(4 - first.count(".") - 1))
    return f"{first}.{rest}"


SECRET_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "private_address_beside_local": (
        _private_address,
        ("bind 127.0.0.1 then {v}", "listening on 0.0.0.0:80, peer {v}", "src=127.0.0.1,dst={v}"),
    ),
    "hl7_person_segment": (
        _hl7_person,
        ("ADT^A08 received: {v}", "MSH|^~\\&|LAB|H|||{t}||ADT^A01|{n}|P|2.5 {v} PV1|1|I", "{v}"),
    ),
    "german_mobile_national": (
        _mobile,
        ("Handy: {v}", "Rückruf unter {v} erbeten", "mobil={v}", '{{"telefon":"{v}"}}'),
    ),
    "phone_double_zero_key": (
        _double_zero,
        ("mobile={v}", "phone: {v}", "callback {v} requested"),
    ),
    "ipv4_number_as_url_host": (
        _url_number_host,
        ("GET http://{v}/admin 403", "ssrf blocked: https://{v}:8443/x", "fetch('http://{v}/')"),
    ),
}

KEEP_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "hl7_other_segments": (
        lambda rng: f"OBX|{rng.randrange(1, 9)}|NM|GLU^Glucose||{rng.randrange(60, 200)}|mg/dL",
        ("ORU^R01 {v}", "result segment {v}"),
    ),
    "twelve_digits_without_mobile_trunk": (
        lambda rng: f"0{rng.randrange(2, 9)}{_digits(rng, 2)} {_digits(rng, 8)}",
        ("batch {v} closed", "range {v} scanned"),
    ),
    "loopback_or_unspecified_address": (
        lambda rng: (
            make.choice(
                rng,
                ("0.0.0.0", "127.0.0.1", f"127.0.{rng.randrange(0, 3)}.{rng.randrange(1, 254)}"),
            )
            + make.choice(rng, ("", f":{rng.randrange(1024, 65535)}"))
        ),
        ("listening on {v}", "bind {v}", "server started at http://{v}/", "resolver {v}#53"),
    ),
    "number_in_url_path": (
        lambda rng: str(rng.randrange(10**8, 10**10)),
        ("GET https://api.{h}/orders/{v} 200", "http://{h}/items/{v}?page=2"),
    ),
}
