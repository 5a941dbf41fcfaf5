"""Ids that follow one person's phone, SIM or handset, after their name: IMSI, ICCID (also
the modem's ``+CCID:`` answer), IMEI, advertising ids (IDFA, GAID)."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

MASKED = [
    ("MME: Attach request IMSI=262011934891561", "262011934891561"),
    ("imsi: 310150123456789 attached", "310150123456789"),
    ("modem: +CCID: 8949894623136380105", "8949894623136380105"),
    ('{"iccid":"89014103211118510720"}', "89014103211118510720"),
    ("device imei=490154203237518 blocked", "490154203237518"),
    ("adjust: idfa=A3EACF9B-2F6A-4E8E-978F-55BC223A6DAA tracking=1", "55BC223A6DAA"),
    ("gaid: 38400000-8cf0-11bd-b23e-10b96e40000d", "10b96e40000d"),
]

KEPT = ["imsi_attach_count=12", "idfa=00000000-0000-0000-0000-000000000000", "imei check ok"]


@pytest.mark.parametrize(("line", "value"), MASKED)
def test_a_device_id_after_its_name_goes(line: str, value: str) -> None:
    assert value not in Redactor().redact(line)


@pytest.mark.parametrize("line", KEPT)
def test_counts_and_zeroed_ids_stay(line: str) -> None:
    assert Redactor().redact(line) == line
