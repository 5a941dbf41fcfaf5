"""What the redactor remembers (word shapes, whole texts with a tab or line break) and the
cheap tests in front of its patterns never change a redaction."""

from __future__ import annotations

import re

import pytest

from factledger.domain.logs.redaction import Redactor, word_gate
from factledger.domain.logs.templates import mask_word
from tests.support.redaction_corpus import load


def _corpus_words() -> set[str]:
    words: set[str] = set()
    for row in load():
        words.update(row["line"].split())
    return words


def test_the_context_gate_answers_as_one_search_of_all_its_patterns_does() -> None:
    union = re.compile(
        "|".join(
            (
                *map(re.escape, word_gate._GATE_WORDS),
                word_gate._KEY_GATE,
                word_gate._EXACT_WORD,
                word_gate._SEPARATOR_GATE,
            )
        )
    ).search
    words = {word.lower() for word in _corpus_words()} | {
        "-u",
        "pid#12",
        "ppid",
        "process:",
        "processes",
        "x-key",
        "hostname=a",
        "node/",
        "selected",
        "process_id/7",
        "pod_name#3",
        "mypid:9",
    }
    short_key_end = word_gate._SHORT_KEY_END
    words |= {"bind_pw", "vpn.psk", "admin-pin", "spin", "pwd_pw_x"}
    disagreeing = [
        word
        for word in words
        if word_gate.gated(word)
        != (
            word == "-u"
            or bool(union(word))
            or (len(word) <= 40 and short_key_end(word) is not None)
        )
    ]
    assert disagreeing == []


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("10.0.0.1", "999.0.0.1", "999.0.0.1"),
        ("999.0.0.1", "10.0.0.1", "<IP>"),
        ("10.0.0.1:80", "10.0.0.256:80", "10.0.0.256:80"),
        ("deadbeef0", "cafebabe1", "cafebabe1"),
        ("bob@example.com", "ann@example.com", "<EMAIL>"),
    ],
)
def test_a_word_of_a_shape_already_seen_is_judged_on_its_own_digits(
    first: str, second: str, expected: str
) -> None:
    redactor = Redactor()
    redactor.redact(f"from {first} ok")
    assert redactor.redact(f"from {second} ok") == f"from {expected} ok"


@pytest.mark.parametrize(
    "text",
    [
        "\tat com.acme.Client.charge(Client.java:65)",
        "login failed\tpassword=hunter2x from 10.0.0.1",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAz8d\n-----END RSA PRIVATE KEY-----",
        "call 030 1234567\tback",
    ],
)
def test_a_text_with_a_tab_or_line_break_redacts_the_same_each_time_it_comes(text: str) -> None:
    fresh = Redactor(word_hook=mask_word).redact_words(text)
    redactor = Redactor(word_hook=mask_word)
    for _ in range(3):
        redacted, words = redactor.redact_words(text)
        assert (redacted, words) == fresh
        words.append("changed by the caller")
        assert redactor.redact(text) == fresh[0]


def test_a_full_memory_forgets_remembered_texts_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from factledger.domain.logs.redaction import redactor as redaction

    monkeypatch.setattr(redaction, "_MEMO_CHARS", 10)
    redactor = Redactor()
    text = "\tpassword=hunter2x at line one"
    assert redactor.redact(text) == "\tpassword=<SECRET> at line one"
    assert redactor.redact("\tother text with a tab") == "\tother text with a tab"
    assert redactor._texts.keys() <= {"\tother text with a tab"}
    assert redactor.redact(text) == "\tpassword=<SECRET> at line one"
