"""Folding one word: British spellings, special words, then the first suffix of the list the
word ends with that leaves three letters (a double "s" is kept), then a final "e"; a final
"y" after a consonant is the "i" of "-ies" and "-ied" ("retry", "retries", "retried")."""

from __future__ import annotations

import pytest

from factledger.domain.release.judge.words import stem

FOLDED: list[tuple[str, str]] = [
    ("authorisations", "authoriz"),
    ("authorisation", "authoriz"),
    ("authorised", "authoriz"),
    ("authorises", "authoriz"),
    ("authorising", "authoriz"),
    ("realise", "realiz"),
    ("organisation", "organiz"),
    ("isles", "isle"),
    ("stations", "stat"),
    ("station", "stat"),
    ("conditions", "cond"),
    ("condition", "cond"),
    ("exhaustions", "exhaust"),
    ("exhaustion", "exhaust"),
    ("settlements", "settl"),
    ("settlement", "settl"),
    ("deployments", "deploy"),
    ("deployment", "deploy"),
    ("readiness", "readi"),
    ("priorities", "prior"),
    ("priority", "prior"),
    ("failures", "fail"),
    ("failure", "fail"),
    ("warnings", "warn"),
    ("warning", "warn"),
    ("repeatedly", "repeat"),
    ("exhausted", "exhaust"),
    ("peers", "peer"),
    ("retries", "retri"),
    ("retried", "retri"),
    ("retry", "retri"),
    ("copies", "copi"),
    ("copied", "copi"),
    ("copy", "copi"),
    ("entries", "entri"),
    ("entry", "entri"),
    ("delays", "delay"),
    ("boxes", "box"),
    ("matches", "match"),
    ("wishes", "wish"),
    ("buzzes", "buzz"),
    ("classes", "class"),
    ("glass", "glass"),
    ("pools", "pool"),
    ("gradually", "gradual"),
    ("worker", "work"),
    ("renewals", "renewal"),
    ("renewal", "renew"),
    ("tries", "trie"),
    ("uses", "use"),
    ("hosts", "host"),
    ("queue", "queu"),
    ("queues", "queu"),
    ("timed", "time"),
    ("time-out", "timeout"),
    ("timeouts", "timeout"),
    ("timeout", "timeout"),
    ("Don't", "not"),
    ("can't", "not"),
    ("Gateway's", "gateway"),
    ("'quoted'", "quot"),
    ("success", "succ"),
    ("successful", "succ"),
    ("ss", "ss"),
    ("es", "es"),
    ("s", "s"),
    ("sss", "sss"),
    ("ed", "ed"),
    ("ing", "ing"),
    ("ation", "ation"),
    ("bus", "bus"),
    ("gas", "gas"),
    ("ashes", "ash"),
    ("ALLOCATIONS", "alloc"),
    ("Pool", "pool"),
    ("analyses", "analys"),
    ("lookup", "lookup"),
    ("realise\n", "realize\n"),
    ("promise", "promiz"),
    ("crisis", "crisi"),
    ("analysis", "analysi"),
    ("Isation", "izat"),
    ("rises", "riz"),
    ("wasn't", "not"),
    ("it's", "it"),
    ("'s", "s"),
    ("o'clock", "o'clock"),
]


@pytest.mark.parametrize(("word", "folded"), FOLDED)
def test_a_word_folds_to_its_stem(word: str, folded: str) -> None:
    assert stem(word) == folded


def test_a_suffix_is_cut_only_when_three_letters_are_left() -> None:
    assert [stem(word) for word in ("ing", "bring", "string")] == ["ing", "bring", "str"]
