"""Health, tax and membership numbers after the word that names them."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

LEAKS = [
    ("MRN: 00482913", "00482913"),
    ("patient id 4455667788 admitted", "4455667788"),
    ("insurance member id XYZ123456789", "123456789"),
    ("itin=912-70-1234", "912-70-1234"),
    ("medicare number 1234567890A", "1234567890"),
]
KEEPS = [
    ("patient count 12", "patient count 12"),
    ("member joined 2024-06-01", "2024-06-01"),
    ("members=1234567", "members=1234567"),
    ("patient wait 1500ms", "1500ms"),
]


@pytest.mark.parametrize(("line", "secret"), LEAKS)
def test_record_numbers_are_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), KEEPS)
def test_counts_and_dates_after_the_same_words_stay(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)
