"""Card numbers written with slashes, the track data around a card number, and keys whose
body is hex after a listed vendor prefix or after a CI masking command."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

LEAKS = [
    ("card 4111/1111/1111/1111 declined", "1111/1111"),
    ("pan=5500/0000/0000/0004", "0000/0004"),
    ("amex 3782/822463/10005 ok", "822463"),
    ("Track2=;4111111111111111=25121010000000000000?", "2512101000"),
    ("track data 5500000000000004=2812201000000 read", "2812201000"),
    ("calling workspace API with dapiabcdef0123456789abcdef0123456789", "abcdef0123456789"),
    ("token=dapi0123456789abcdef0123456789abcdef-2", "0123456789abcdef"),
    ("Braintree access_token$production$x7k9m2p4q6r8s0t1$a1b2c3d4e5f6a7b8c9d0e1f2", "x7k9m2p4"),
    ("mailgun key-3ax6xnjp29jd6fds4gc373sgvjxteol0", "3ax6xnjp29jd"),
    ('echo "::add-mask::s3cr3tV4lue"', "s3cr3tV4lue"),
    ("::add-mask::plainwords", "plainwords"),
]

KEEPS = [
    ("ratio 1234/5678/9012/3456 held", "1234/5678/9012/3456"),
    ("path /srv/2024/1111/1111/1111 read", "/srv/2024/1111/1111/1111"),
    ("dapi endpoint ready", "dapi endpoint ready"),
    ("key-value store ready", "key-value store ready"),
    ("key-rotation-2024 finished", "key-rotation-2024"),
    ("::group::Run tests", "::group::Run tests"),
]


@pytest.mark.parametrize(("line", "secret"), LEAKS)
def test_word_values_are_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), KEEPS)
def test_look_alikes_stay(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)
