"""HL7 v2 person segments field by field, German mobiles and ``00`` international numbers,
IPv4 addresses written as one number where a URL names its host; and what stays beside
them."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

LEAKS = [
    ("PID|1||48213377^^^CLINIC^MR||HALVORSEN^ERIK^J||19611203|M", "HALVORSEN"),
    ("PID|1||48213377^^^CLINIC^MR||HALVORSEN^ERIK^J||19611203|M", "48213377"),
    ("PID|1||48213377^^^CLINIC^MR||HALVORSEN^ERIK^J||19611203|M", "19611203"),
    ("msg MSH|^~\\&|A|B PID|1||77^^^H||DA SILVA^ANA MARIA||19800101|F PV1|1|O", "ANA MARIA"),
    ("NK1|1|HALVORSEN^KARI|SPO|Storgata 1^^Oslo", "Storgata 1"),
    ("IN1|1|BCBS01|77|BLUE CROSS|||GRP9|||||||HALVORSEN^ERIK", "HALVORSEN^ERIK"),
    ("Mobil: 0163 12345678", "12345678"),
    ("tel=0172/87654321", "87654321"),
    ("phone=0031 20 5551234", "5551234"),
    ("blocked http://2130706433/admin", "2130706433"),
    ("curl http://0x7F000001:8080/", "0x7F000001"),
    ("GET http://0177.0000.0000.0001/ 403", "0177.0000.0000.0001"),
    ("listening on 0.0.0.0:8080, first peer 10.1.2.3", "10.1.2.3"),
]

KEEPS = [
    ("OBX|1|NM|HGB^Hemoglobin||13.5|g/dL|12-16|N", "OBX|1|NM|HGB^Hemoglobin||13.5|g/dL"),
    ("MSH|^~\\&|LAB|HOSP|||20240101120000||ORU^R01|MSG001|P|2.5", "ORU^R01|MSG001"),
    ("| PID | USER | COMMAND |", "| PID | USER | COMMAND |"),
    ("ids 0412 12345678 merged", "0412 12345678"),
    ("GET https://api.example.org/orders/2130706433 200", "/orders/2130706433"),
    ("listening on 0.0.0.0:8080", "0.0.0.0:8080"),
    ("redis bound to 127.0.0.1:6379 only", "127.0.0.1:6379"),
]


@pytest.mark.parametrize(("line", "secret"), LEAKS)
def test_record_values_are_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), KEEPS)
def test_look_alikes_stay(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)
