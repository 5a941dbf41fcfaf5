"""Travel documents the blind red-team set found whole: a passport number under a key that
ends in a number word (``passportNo``), and the lines of a machine-readable zone."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

MASKED = [
    ('{"passportNo":"484715021","country":"USA"}', "484715021"),
    ("passport_nr=C01X00T47 verified", "C01X00T47"),
    ("ssn_no=078051120", "078051120"),
    ("CLHHGHV212D<<8704234F3011238<<<<<<<<<<<<<<<2", "8704234F"),
    ("P<D<<MUSTERFRAU<<ERIKA<MARIA<<<<<<<<<<<<<<<<<", "MUSTERFRAU"),
    ("mrz: I<UTOD231458907<<<<<<<<<<<<<<<", "D231458907"),
]

KEPT = [
    "api_key_id=42",
    "<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<",
    "ABCDEFGHIJ<<KLMNOPQRSTUVWXYZ0123456",
    "<SECRET><SECRET><SECRET><SECRET><SECRET>",
]


@pytest.mark.parametrize(("line", "value"), MASKED)
def test_a_document_number_or_zone_line_goes(line: str, value: str) -> None:
    assert value not in Redactor().redact(line)


@pytest.mark.parametrize("line", KEPT)
def test_ids_counts_and_lines_of_other_lengths_stay(line: str) -> None:
    assert Redactor().redact(line) == line
