"""A version named with ``version: `` and the scheme of an ``Authorization`` header stay;
an address named otherwise and the credentials after the scheme are still replaced."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

VERSIONS = [
    "client version: 1.2.3.4",
    'agent {"version": "10.0.19041.1"}',
    "version=1.2.3.4",
]
ADDRESSES = [
    "ip: 1.2.3.4",
    "from 10.0.0.1",
    "host 1.2.3.4",
    "version: ok from 10.0.0.1",
    "dhcp release 10.0.0.1",
    "build ok, peer 10.0.0.1",
]
TOKEN = "00abcDEFghiJKLmnoPQRstuVWXyz0123456789"
SCHEMES = ["SSWS", "Bearer", "Basic", "Token", "Negotiate", "GenieKey", "Bot"]


@pytest.mark.parametrize("line", VERSIONS)
@pytest.mark.parametrize("before", ["", "x\t"])
def test_a_value_named_as_a_version_stays(line: str, before: str) -> None:
    assert Redactor().redact(before + line) == before + line


@pytest.mark.parametrize("line", ADDRESSES)
@pytest.mark.parametrize("before", ["", "x\t"])
def test_an_address_not_named_as_a_version_is_replaced(line: str, before: str) -> None:
    redacted = Redactor().redact(before + line)
    assert "<IP>" in redacted
    assert "10.0.0.1" not in redacted
    assert "1.2.3.4" not in redacted


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("header", ["Authorization", "Proxy-Authorization"])
def test_the_scheme_stays_and_the_credentials_go(scheme: str, header: str) -> None:
    redacted = Redactor().redact(f"{header}: {scheme} {TOKEN} status=200")
    assert redacted == f"{header}: {scheme} <SECRET> status=200"


@pytest.mark.parametrize("line", VERSIONS)
def test_a_version_stays_after_the_same_digits_were_seen_as_an_address(line: str) -> None:
    redactor = Redactor()
    assert redactor.redact("peer 1.2.3.4") == "peer <IP>"
    assert redactor.redact(line) == line


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("authorization: ssws {t}", "authorization: ssws <SECRET>"),
        ("authorization: bot {t}", "authorization: bot <SECRET>"),
        ("Authorization=SSWS {t}", "Authorization=SSWS <SECRET>"),
        ("authorization=geniekey {t} status=200", "authorization=geniekey <SECRET> status=200"),
        ('"Authorization": "Bearer {t}"', '"Authorization": "Bearer <SECRET>"'),
        ('{{"authorization":"SSWS {t}"}}', '{{"authorization":"SSWS <SECRET>"}}'),
        (
            "{{'Proxy-Authorization': 'Negotiate {t}'}}",
            "{{'Proxy-Authorization': 'Negotiate <SECRET>'}}",
        ),
        ('headers["Authorization"] = "Bot {t}"', 'headers["Authorization"] = "Bot <SECRET>"'),
        ("x\tAuthorization=SSWS {t}", "x\tAuthorization=SSWS <SECRET>"),
    ],
)
def test_credentials_after_any_scheme_in_any_spelling_go_and_the_scheme_stays(
    line: str, kept: str
) -> None:
    text, expected = line.format(t=TOKEN), kept.format()
    assert Redactor().redact(text) == expected
    assert Redactor(word_hook=str).redact_words(text)[0] == expected


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("Authorization=SSWS", "SSWS"),
        ("Authorization: hunter2hunter2", "hunter2hunter2"),
        ("authorization=Hunter2pass ok", "Hunter2pass"),
    ],
)
def test_a_lone_authorization_value_still_goes(line: str, value: str) -> None:
    redacted = Redactor().redact(line)
    assert "<SECRET>" in redacted
    assert value not in redacted
