"""Vehicle registration plates after their name, in the spellings of several countries."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

MASKED = [
    ("anpr cam=gate-2 plate=LB19 XKT conf=0.97 dir=in", "LB19 XKT"),
    ('parking: entry kennzeichen="M-KX 4821" lane=3', "M-KX 4821"),
    ("licence_plate: AB-123-CD", "AB-123-CD"),
    ("kenteken=12-ABC-3 geregistreerd", "12-ABC-3"),
    ("immatriculation: GE-123-FT", "GE-123-FT"),
]

KEPT = ["plate=ok", "plate_count=12", "plate: steel 4mm", "template=default", "targa=v2"]


@pytest.mark.parametrize(("line", "plate"), MASKED)
def test_a_plate_after_its_name_goes(line: str, plate: str) -> None:
    assert plate not in Redactor().redact(line)


@pytest.mark.parametrize("line", KEPT)
def test_words_and_counts_after_such_names_stay(line: str) -> None:
    assert Redactor().redact(line) == line
