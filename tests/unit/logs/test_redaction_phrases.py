"""Secrets of several words after the noun that names them (passphrases, mnemonics, answers
to security questions), and one-time codes after the words that name them."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

LEAKS = [
    ("passphrase: correct horse battery staple", "horse battery staple"),
    ("wifi passphrase: my home network 2024", "home network"),
    ("Enter passphrase: blue monkey eats lemons", "monkey eats"),
    ('gpg: passphrase = "open sesame please"', "sesame please"),
    ("Enter PEM pass phrase: pemPhrase99", "pemPhrase99"),
    ("mnemonic: abandon ability able about above absent absorb abstract", "able about"),
    ('seed_phrase = "legal winner thank year wave sausage worth useful"', "winner thank"),
    ("recovery phrase is ribbon lemon tiger crane", "lemon tiger"),
    ("security answer: Fluffy the cat", "Fluffy"),
    ("secret answer = my first school", "first school"),
    ("Your verification code is 739201", "739201"),
    ("OTP code 482913 sent", "482913"),
    ("2FA code: 118822 accepted", "118822"),
    ("recovery codes: 8f3k-2m9p x7q1-4z8w", "8f3k-2m9p"),
    ("recovery codes: 8f3k-2m9p x7q1-4z8w", "x7q1-4z8w"),
    ("sms one-time code=55123 for +0000", "55123"),
    ("activation code ABCD-1234-EFGH", "ABCD-1234"),
]

KEEPS = [
    ("Enter passphrase for key '/root/.ssh/id_ed25519':", "'/root/.ssh/id_ed25519':"),
    ("passphrase_min_words=4", "passphrase_min_words=4"),
    ("bad passphrase, try again", "bad passphrase, try again"),
    ("error code 500 from upstream", "error code 500"),
    ("exit code 137", "exit code 137"),
    ("status code 404 returned", "status code 404"),
    ("verification code sent to user", "verification code sent to user"),
    ("verification code expired after 300s", "expired after 300s"),
    ("answer: 42 rows", "42 rows"),
    ("seed=1234 shuffle", "seed=1234"),
]


@pytest.mark.parametrize(("line", "secret"), LEAKS)
def test_phrases_and_codes_are_replaced(line: str, secret: str) -> None:
    redacted = Redactor().redact(line)
    assert secret not in redacted, redacted


@pytest.mark.parametrize(("line", "kept"), KEEPS)
def test_look_alikes_stay(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)


NAMED_KEY_LEAKS = [
    ("license key 3f2504e0-4f89-11d3-9a0c-0305e82c3301", "0305e82c3301"),
    ("registering agent with key 9b2c4e6f-1a3d-4f5b-8c7e-0d2f4a6b8c1e", "0d2f4a6b8c1e"),
    ("Using key Zk29Lm3Qx8Rn5Tp7Wv", "Zk29Lm3Qx8Rn5Tp7Wv"),
    ("product key: 7b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e", "9f0a1b2c3d4e"),
]
NAMED_KEY_KEEPS = [
    ("cache key 3f2504e0-4f89-11d3-9a0c-0305e82c3301 evicted", "0305e82c3301"),
    ("idempotency key 9b2c4e6f-1a3d-4f5b-8c7e-0d2f4a6b8c1e reused", "0d2f4a6b8c1e"),
    ("partition key 7b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e hot", "9f0a1b2c3d4e"),
    ("uploaded object key uploads/2024/IMG_1234Ab.jpg", "uploads/2024/IMG_1234Ab.jpg"),
    ("primary key 7b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e conflict", "9f0a1b2c3d4e"),
]


@pytest.mark.parametrize(("line", "secret"), NAMED_KEY_LEAKS)
def test_a_key_after_the_word_key_is_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), NAMED_KEY_KEEPS)
def test_ids_after_a_key_that_is_no_credential_stay(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)
