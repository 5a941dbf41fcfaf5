"""Values named by words joined into one: a password key that joins a qualifier to ``pass``
(``--requirepass``), an id's name joined to its word for *number* (``Personalausweis-Nr.``,
``pesel_no``), a MAC address of twelve hex digits after its name, and an e-mail address
spelled in lower-case words; the look-alikes stay."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

GOES = [
    ("redis-server --requirepass Kx9mPq2zR77", "redis-server --requirepass <SECRET>"),
    ("rootpass=Kx9mPq2zR77", "rootpass=<SECRET>"),
    ("smtppass: Kx9mPq2zR77", "smtppass: <SECRET>"),
    ('{"adminpwd": "Kx9mPq2zR77"}', '{"adminpwd": "<SECRET>"}'),
    ("Personalausweis-Nr. T22000129", "Personalausweis-Nr. <NATIONAL_ID>"),
    ("pesel_no=44051401359", "pesel_no=<NATIONAL_ID>"),
    ("BSN-nummer: 111222333", "BSN-nummer: <NATIONAL_ID>"),
    ("mac=001A2B3C4D5E", "mac=<MAC>"),
    ("MAC address 001a2b3c4d5e", "MAC address <MAC>"),
    ('{"client_mac":"a4b1c2d3e4f5"}', '{"client_mac":"<MAC>"}'),
    ("bssid: 0A1B2C3D4E5F", "bssid: <MAC>"),
    ("chaddr 001122334455", "chaddr <MAC>"),
    ("macAddress=00112233445a", "macAddress=<MAC>"),
    ("contact jdoe at example dot com", "contact <EMAIL>"),
    ("mail jane.doe at mail dot example dot org now", "mail <EMAIL> now"),
]

KEPT = [
    "bypass=true compass=north lowpass=200",
    "account_id=12345678901",
    "hmac 001122334455",
    "machine 001122334455",
    "mac deadbeefcafe",
    "looking at cache dot files",
    "retry at 12:00 dot matrix",
    "commit 3f8a2b9d1e4f merged",
]


@pytest.mark.parametrize(("line", "expected"), GOES)
def test_the_value_goes_and_its_name_stays(line: str, expected: str) -> None:
    assert Redactor().redact(line) == expected


@pytest.mark.parametrize("line", KEPT)
def test_look_alikes_stay_intact(line: str) -> None:
    assert Redactor().redact(line) == line


NAMED_GOES = [
    # key material in hex after a qualified name, and `is` between a name and its value
    (
        "encryption key: 0123456789abcdef0123456789abcdef",
        "encryption key: <SECRET>",
    ),
    ("master key is Zx8Cv7Bn6Mq5Wl4Ek3Rt2Yu", "master key is <SECRET>"),
    # PIN codes named with a qualifier
    ("PIN code 4821", "PIN code <SECRET>"),
    ("SIM pin 1234", "SIM pin <SECRET>"),
    # dates of birth under keys of other languages, and after a dash
    ("fecha_nacimiento=1985-04-23", "fecha_nacimiento=<SECRET>"),
    ('{"Geburtsdatum": "23.04.1985"}', '{"Geburtsdatum": "<SECRET>"}'),
    ("DoB - 1985-04-23", "DoB - <SECRET>"),
    # a home directory reached through `..`
    (
        "/var/lib/jenkins/workspace/../../../home/bob/.aws/credentials",
        "/var/lib/jenkins/workspace/../../../home/<USER>/.aws/credentials",
    ),
]

NAMED_KEPT = [
    "cache key 0123456789abcdef0123456789abcdef",
    "commit key 0123456789abcdef0123456789abcdef",
    "master key is rotated",
    "error code 500 exit code 137",
    "geb. Schmidt",
]


@pytest.mark.parametrize(("line", "expected"), NAMED_GOES)
def test_a_value_named_in_words_goes(line: str, expected: str) -> None:
    assert Redactor().redact(line) == expected


@pytest.mark.parametrize("line", NAMED_KEPT)
def test_words_naming_no_credential_stay(line: str) -> None:
    assert Redactor().redact(line) == line


SPELLINGS_GO = [
    ("iban: DE89-3704-0044-0532-0130-00", "iban: <IBAN>"),
    ("de89-3704-0044-0532-0130-00 ok", "<IBAN> ok"),
    ("+33 (0)6 12 34 56 78", "<PHONE>"),
    ("+44 (0) 20 7946 0958", "<PHONE>"),
    ("C:\\Users\\o'brien\\x", "C:\\Users\\<USER>\\x"),
]


@pytest.mark.parametrize(("line", "expected"), SPELLINGS_GO)
def test_other_spellings_of_known_values_go(line: str, expected: str) -> None:
    assert Redactor().redact(line) == expected


def test_dashed_groups_without_a_valid_check_stay() -> None:
    assert Redactor().redact("AB12-CDEF-GHIJ-KLMN x") == "AB12-CDEF-GHIJ-KLMN x"
