"""Corpus families of secrets of several words after their noun (passphrases, mnemonics,
security answers) and of one-time codes, with look-alikes that stay."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from tests.support import redaction_values as make

Maker = Callable[[random.Random], str]

_WORDS: Final = (
    "amber", "basket", "candle", "dolphin", "ember", "falcon", "garden", "harbor", "island",
    "jungle", "kettle", "lantern", "meadow", "nectar", "orchid", "pepper", "quiver", "raven",
    "saddle", "timber", "velvet", "willow", "yonder", "zephyr",
)  # fmt: skip


def _phrase(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(3, 13)))


def _code(rng: random.Random) -> str:
    form = rng.randrange(3)
    if form == 0:
        return str(rng.randrange(1000, 99999999))
    if form == 1:
        return make.text(rng, make.LOWER + make.DIGITS, 4) + "-" + str(rng.randrange(1000, 9999))
    return "-".join(make.text(rng, make.UPPER, 4) for _ in range(2)) + str(rng.randrange(10, 99))


SECRET_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "multi_word_passphrase": (
        _phrase,
        (
            "wallet mnemonic: {v}",
            'restore seed_phrase="{v}"',
            "key passphrase: {v}",
            "recovery words = {v}",
            "security answer: {v}",
            "imported with pass phrase '{v}'",
        ),
    ),
    "one_time_code": (
        _code,
        (
            "Your verification code is {v}",
            "otp code: {v} sent to {h}",
            "2FA code={v} accepted",
            "recovery codes: {v}",
            "activation code {v} issued",
            "sms one-time code {v} expires in 5m",
        ),
    ),
}

SECRET_FAMILIES["key_after_bare_noun"] = (
    lambda rng: make.uuid(rng) if rng.randrange(2) else make.random_key(rng, 20),
    (
        "license key {v}",
        "registering agent with key {v}",
        "product key: {v} accepted",
        "signing requests with key {v}",
    ),
)

SECRET_FAMILIES["health_and_member_numbers"] = (
    lambda rng: make.choice(rng, ("", "A", "XYZ")) + str(rng.randrange(10**6, 10**10)),
    (
        "MRN: {v}",
        "patient id {v} admitted",
        "insurance member id {v}",
        "medicare number {v}",
        '{{"mrn":"{v}"}}',
    ),
)

KEEP_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "identifier_after_key": (
        make.uuid,
        (
            "cache key {v} evicted",
            "idempotency key {v} reused",
            "partition key {v} hot",
            "primary key {v} conflict",
        ),
    ),
    "status_codes_and_phrase_words": (
        lambda rng: str(rng.randrange(100, 600)),
        (
            "error code {v} from upstream",
            "exit code {v}",
            "status code {v} returned",
            "passphrase_min_words={v}",
            "answer: {v} rows",
        ),
    ),
}
