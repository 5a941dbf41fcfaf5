"""Numbers confirmed by their own check and a word near them, or by shape and check digits
alone: US routing numbers, UK sort codes, Aadhaar, US tax numbers, Medicare MBIs, CPF and
CNPJ; and numbers of the same shapes without such a word or check, which stay."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor
from factledger.domain.logs.redaction.checked_numbers import aba_valid, verhoeff_valid

LEAKS = [
    ("ACH credit routing 011000015 account ****9912", "011000015"),
    ('{"aba_number":"021000021"}', "021000021"),
    ("Faster Payments sort code 40-47-84 acct 70872490", "40-47-84"),
    ("aadhaar OTP sent for 2345 6789 0124", "2345 6789 0124"),
    ("UIDAI auth uid=234567890124", "234567890124"),
    ("1099 issued to FEIN 45-1234567", "45-1234567"),
    ("TIN: 912-78-3456 on W-9", "912-78-3456"),
    ("eligibility: MBI 5TW3-QN7-HA52 active", "5TW3-QN7-HA52"),
    ("medicare_id=3AD9KP1GM84", "3AD9KP1GM84"),
    ("claim 8VE2-FJ6-TX39 pended", "8VE2-FJ6-TX39"),
    ("cliente 111.444.777-35 ativo", "111.444.777-35"),
    ("emitente 11.222.333/0001-81", "11.222.333/0001-81"),
    ("merchant_key=Qz81mLk2Vb", "Qz81mLk2Vb"),
    ("transactionKey: 6Hs2k9Lp4QwE", "6Hs2k9Lp4QwE"),
]

KEEPS = [
    ("order 011000015 shipped", "011000015"),
    ("aadhaar service latency 2345 ms", "2345 ms"),
    ("aadhaar lookup for 2345 6789 0123 failed", "2345 6789 0123"),
    ("Es gab ein Problem, Auftrag 45-1234567", "45-1234567"),
    ("routing_key=orders.created", "routing_key=orders.created"),
    ("part 5TW3-SN7-HA52 restocked", "5TW3-SN7-HA52"),
    ("build 111.444.777-36 tagged", "111.444.777-36"),
]


@pytest.mark.parametrize(("line", "secret"), LEAKS)
def test_checked_numbers_are_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), KEEPS)
def test_look_alikes_stay(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)


def test_checks() -> None:
    assert aba_valid("011000015")
    assert not aba_valid("011000016")
    assert not aba_valid("991000015")  # no Federal Reserve prefix 99
    assert verhoeff_valid("2363")
    assert not verhoeff_valid("2364")
