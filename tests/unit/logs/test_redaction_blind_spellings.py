"""Spellings the blind red-team set found: a Windows home path with the drive and ``users`` in
lower or upper case, an e-mail address whose ``@`` a serializer escaped (``\\u0040``,
``\\x40``), a hex key with its data centre (Mailchimp's ``…-us21``); and payment object ids
(``ch_…``, ``evt_…``) that are records' names, not keys."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

MASKED = [
    (r"loading c:\users\nkhumalo\.aws\credentials", "nkhumalo"),
    (r"open C:\USERS\JDOE\AppData\Local\x.db", "JDOE"),
    ("cache d:/users/priya/.npmrc", "priya"),
    (r'{"email":"chen.wei\u0040qq.com"}', "chen.wei"),
    (r"to=anna\\u0040corp.example.org", "anna"),
    (r"from jo.smith\x40mail.ru", "jo.smith"),
    ("mailchimp: using key b2b0b2926779294a7984c5f79bd72b40-us21", "b2b0b2926779294a"),
    ("MC_KEY=0123456789abcdef0123456789abcdef-us6", "0123456789abcdef"),
]

KEPT = [
    r"C:\Users\Public\Documents",
    "GET /api/users/42",
    r'{"note":"\u0040here"}',
    "commit 0123456789abcdef0123456789abcdef done",
    "charge.succeeded ch_305cACsaqHbn29blDBxLRSb7H",
    "webhook evt_1y6wIMqlwzuykvZrhn1DNSuV8 received",
    "customer cus_9s6XKzkNRiz8i3 created, invoice in_1MtHbELkdIwHu7ixl4OzzPMv",
]


@pytest.mark.parametrize(("line", "value"), MASKED)
def test_a_spelling_of_a_user_an_address_or_a_key_goes(line: str, value: str) -> None:
    assert value not in Redactor().redact(line)


@pytest.mark.parametrize("line", KEPT)
def test_shared_folders_paths_hashes_and_object_ids_stay(line: str) -> None:
    assert Redactor().redact(line) == line


def test_a_stripe_key_still_goes() -> None:
    assert "51H8x9Zq9x8LmP2vR7tW3kLq0" not in Redactor().redact(
        "sk_live_51H8x9Zq9x8LmP2vR7tW3kLq0yN1bV4cX5zA6"
    )
