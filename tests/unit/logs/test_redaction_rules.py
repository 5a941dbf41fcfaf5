"""Redaction keeps keys and structure and replaces only values."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("password=hunter2x user=bob", "password=<SECRET> user=bob"),
        ('{"password": "a b c", "user": "bob"}', '{"password": "<SECRET>", "user": "bob"}'),
        ("Authorization: Bearer abcdefgh12345678", "Authorization: Bearer <SECRET>"),
        (
            "postgres://app:s3cret@db.prod.internal:5432/app",
            "postgres://app:<SECRET>@<HOST>:5432/app",
        ),
        ("from 10.0.0.1:5432 to fe80::1%eth0", "from <IP>:5432 to <IP>"),
        ("mail bob@example.com", "mail <EMAIL>"),
        ("worker exited pid=4242", "worker exited pid=<PID>"),
        ("sshd[4242]: accepted", "sshd[<PID>]: accepted"),
        ("--password hunter2x --user bob", "--password <SECRET> --user bob"),
        (
            "SELECT id FROM t WHERE email = 'a@b.org' AND n = 42",
            "SELECT id FROM t WHERE email = <SQL_LITERAL> AND n = <SQL_LITERAL>",
        ),
    ],
)
def test_a_value_is_replaced_by_its_typed_placeholder_and_its_key_stays(
    line: str, expected: str
) -> None:
    assert Redactor().redact(line) == expected


def test_a_bare_cache_key_is_not_a_credential() -> None:
    assert (
        Redactor().redact("cache hit key=orders:123 ttl=30s") == "cache hit key=orders:123 ttl=30s"
    )


def test_a_field_named_like_a_credential_is_replaced_whole() -> None:
    redactor = Redactor()
    assert redactor.redact_value("db_password", "x y z") == "<SECRET>"
    assert redactor.redact_value("attempts", 3) == 3
    assert redactor.redact_value("client", "10.1.2.3") == "<IP>"
    assert redactor.redact_value("headers", {"X-Api-Key": "abc"}) == {"X-Api-Key": "<SECRET>"}


def test_a_private_key_block_spanning_lines_is_replaced_whole() -> None:
    text = "-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\nxyz123\n-----END RSA PRIVATE KEY-----"
    redacted = Redactor().redact(text)
    assert "MIIEabc" not in redacted
    assert "xyz123" not in redacted
    assert redacted.startswith("-----BEGIN RSA PRIVATE KEY-----<SECRET>")


def test_epoch_milliseconds_are_not_mistaken_for_card_numbers() -> None:
    assert Redactor().redact("ts=1717243200123 done") == "ts=1717243200123 done"


def test_a_luhn_valid_card_number_is_replaced() -> None:
    assert Redactor().redact("card 4111111111111111 declined") == "card <CARD> declined"


def test_a_full_word_memory_never_drops_a_redaction_of_the_text_in_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from factledger.domain.logs.redaction import redactor as redaction

    monkeypatch.setattr(redaction, "_MEMO_LIMIT", 3)
    redactor = Redactor()
    first = redactor.redact("password=hunter2x a b c d e f AKIAIOSFODNN7EXAMPLE 10.0.0.1")
    second = redactor.redact("x y z password=hunter2x q 10.0.0.2 bob@example.com")
    assert first == "password=<SECRET> a b c d e f <SECRET> <IP>"
    assert second == "x y z password=<SECRET> q <IP> <EMAIL>"


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("x:REDIS_PASS='B7bwkPwla0!qb3Iz'", "B7bwkPwla0!qb3Iz"),
        ("api-key: 9bebe7dd8078a2681e73c27ebb85bf8b::", "9bebe7dd8078a2681e73c27ebb85bf8b"),
        ("api-key: 9bebe7dd8078a2681e73c27ebb85bf8b<", "9bebe7dd8078a2681e73c27ebb85bf8b"),
        ("headers: X-Api-Key: q7Hk2mPz9Lw4Rt6Yb1Nc8Vd3", "q7Hk2mPz9Lw4Rt6Yb1Nc8Vd3"),
        ("using key-y08yjvli1y00v2dwjcwseq7d3vqfmgnz=:", "y08yjvli1y00v2dwjcwseq7d3vqfmgnz"),
        (".CIRCLE_TOKEN=2cbe22804924ad7a73dc49efd89b226c31b4b7ae x", "2cbe22804924ad7a73dc49efd8"),
        (":INSERT INTO t (a) VALUES ('ddzdqhvvk')", "ddzdqhvvk"),
        ("UPDATE t SET a = 1 WHERE n = 206477565>", "206477565"),
    ],
)
def test_a_value_glued_to_punctuation_is_still_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


def test_a_bracketed_ipv6_address_with_a_port_is_replaced_whatever_follows() -> None:
    assert Redactor().redact("listening on [2001:db8:b809::10b6]:8080:a") == (
        "listening on <IP>:8080:a"
    )


def test_a_warm_word_memory_redacts_every_corpus_line_as_a_fresh_redactor_does() -> None:
    """Words already learned from other lines still call for the context patterns and the
    text families of a later line (the redactor decides that from remembered words)."""
    from factledger.domain.logs.templates import mask_word
    from tests.support.redaction_corpus import leaked, load

    rows = load()
    fresh = [Redactor().redact(row["line"]) for row in rows]
    warm = Redactor(word_hook=mask_word)
    for _ in range(2):
        by_words = [warm.redact_words(row["line"])[0] for row in rows]
        pairs = zip(rows, by_words, strict=True)
        leaks = [text for row, text in pairs if row["kind"] == "secret" and leaked(row, text)]
        assert leaks == []
        assert by_words == fresh
        assert [warm.redact(row["line"]) for row in rows] == fresh
