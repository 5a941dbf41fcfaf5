"""Corpus families of values inside one word: cards written with slashes, track data after a
card number, listed vendor keys with a hex or lower-case body, values given to a CI masking
command; and slashed number groups that are no card."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from tests.support import redaction_values as make

Maker = Callable[[random.Random], str]


def _track(rng: random.Random) -> str:
    expiry = f"{rng.randrange(26, 35)}{rng.randrange(1, 13):02d}"
    rest = "".join(str(rng.randrange(10)) for _ in range(rng.randrange(8, 20)))
    return make.card(rng) + "=" + expiry + "101" + rest


def _hex_vendor(rng: random.Random) -> str:
    form = rng.randrange(3)
    if form == 0:
        return make.choice(rng, ("dapi", "dose")) + make.text(rng, "0123456789abcdef", 32)
    if form == 1:
        body = make.text(rng, make.LOWER + make.DIGITS, 16)
        return "access_token$production$" + body + "$" + make.text(rng, "0123456789abcdef", 32)
    return "key-" + make.text(rng, make.LOWER, 20) + make.text(rng, make.DIGITS + make.LOWER, 12)


def _not_card(rng: random.Random) -> str:
    while True:
        groups = [f"{rng.randrange(1000, 9999)}" for _ in range(4)]
        if not make.luhn_ok("".join(groups)):
            return "/".join(groups)


SECRET_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "card_slashed": (
        lambda rng: make.grouped_card(rng, "/"),
        ("card {v} declined", "pan={v}", '{{"card":"{v}"}}', "charging {v} for 12.00"),
    ),
    "card_track_data": (
        _track,
        ("Track2=;{v}?", "swipe data {v} read", '{{"track2":"{v}"}}'),
    ),
    "vendor_key_hex_body": (
        _hex_vendor,
        ("calling API with {v}", "token={v}", "Authorization header set from {v}", "{v}"),
    ),
    "ci_masked_value": (
        lambda rng: make.choice(rng, (make.password(rng), make.text(rng, make.LOWER, 12))),
        ('echo "::add-mask::{v}"', "::add-mask::{v}", "Run echo ::add-mask::{v} >> env"),
    ),
}

KEEP_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "slashed_number_groups": (
        _not_card,
        ("ratio {v} held", "counters {v} sampled", "ids={v}"),
    ),
}
