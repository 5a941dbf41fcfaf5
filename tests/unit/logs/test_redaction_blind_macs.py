"""MAC addresses the blind red-team set found whole: twelve bare hex digits after a Wi-Fi
station's name (``sta=``), the fourteen octets of a netfilter ``MAC=`` field (destination,
source, EtherType), and pairs joined by dots or underscores after a MAC's name."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

MASKED = [
    ("wlan: assoc sta=C0F9C64D1C8D rssi=-61", "C0F9C64D1C8D"),
    ("hostapd: station 0a1b2c3d4e5f disassociated", "0a1b2c3d4e5f"),
    ("deauth sta: 5C:CF:7F:12:34:56 reason=3", "12:34:56"),
    ("kernel: IN=wlan0 OUT= MAC=ff:ff:ff:ff:ff:ff:1C:64:79:F0:4D:DB:08:00", "1C:64:79:F0:4D:DB"),
    ("IN=eth0 MAC=00:1a:2b:3c:4d:5e:00:11:22:33:44:55:86:dd SRC=…", "00:11:22:33:44:55"),
    ("mac=00.1A.2B.3C.4D.5E", "3C.4D.5E"),
    ("client mac 00_1a_2b_3c_4d_5e", "3c_4d_5e"),
]

KEPT = [
    "hmac=0123456789ab",
    "status=0a1b2c3d4e5f",
    "sta=ok rssi=-61",
    "station=12 ready",
    "MAC=deadbeefcafe",
]


@pytest.mark.parametrize(("line", "mac"), MASKED)
def test_a_mac_after_its_name_goes_whatever_its_spelling(line: str, mac: str) -> None:
    assert mac not in Redactor().redact(line)


@pytest.mark.parametrize("line", KEPT)
def test_words_that_name_no_mac_keep_their_value(line: str) -> None:
    assert Redactor().redact(line) == line
