"""Credentials in network device configurations and in a key-value server's AUTH command go;
the same nouns in an ordinary log line stay."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

SECRET = "Hv4sN8kq2Zr"

LEAKS = [
    "snmp-server community {s} RO",
    "snmp community {s}",
    "username ops privilege 15 password 0 {s}",
    "username ops secret 9 {s}",
    " key-string 7 {s}",
    "key-string {s}",
    "crypto isakmp key {s} address 0.0.0.0",
    "tacacs-server host 10.1.1.1 key 7 {s}",
    "radius-server key {s}",
    "ip ospf message-digest-key 1 md5 {s}",
    " pre-shared-key {s}",
    'set security ike policy ike-pol pre-shared-key ascii-text "{s}"',
    "wpa-psk ascii 0 {s}",
    "AUTH {s}",
    "AUTH default {s}",
    "127.0.0.1:6379> AUTH app {s}",
    "redis> auth {s}",
]
KEPT = [
    "auth failed",
    "AUTH failed for client",
    "auth ok",
    "user auth required",
    "failed password 3 times for bob",
    "key 5 rotated",
    "key 0 of 4 loaded",
    "secret 5 days left",
    "cache key 1 hex ok",
    "community 3 members joined",
]


@pytest.mark.parametrize("line", LEAKS)
@pytest.mark.parametrize("before", ["", "router1\t"])
def test_the_value_goes(line: str, before: str) -> None:
    text = before + line.format(s=SECRET)
    for redacted in (Redactor().redact(text), Redactor(word_hook=str).redact_words(text)[0]):
        assert SECRET not in redacted
        assert "<SECRET>" in redacted


@pytest.mark.parametrize("line", KEPT)
def test_a_line_with_no_credential_stays(line: str) -> None:
    assert Redactor().redact(line) == line


def test_the_clause_keeps_its_type_marker() -> None:
    line = f"username ops privilege 15 password 0 {SECRET}"
    assert Redactor().redact(line) == "username ops privilege 15 password 0 <SECRET>"
