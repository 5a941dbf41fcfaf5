"""Every sensitive value of the corpus is fully covered; no must-not-redact value changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factledger.domain.logs.redaction import Redactor

DATA = Path(__file__).resolve().parents[2] / "data" / "redaction"
CORPUS = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines()]
KEEP = [json.loads(line) for line in (DATA / "must_not_redact.jsonl").read_text().splitlines()]
FRAGMENT = 6


def _leaks(value: str, redacted: str) -> list[str]:
    size = min(FRAGMENT, len(value))
    return [
        value[i : i + size] for i in range(len(value) - size + 1) if value[i : i + size] in redacted
    ]


def test_the_corpus_holds_at_least_eighty_formats() -> None:
    assert len({row["format"] for row in CORPUS}) >= 80


def test_the_corpus_covers_every_family_the_issue_names() -> None:
    categories = {row["category"] for row in CORPUS}
    assert {"cloud", "vcs", "saas", "token", "key", "hash", "pair", "http", "env"} <= categories
    assert {"kubernetes", "cli", "url", "identifier", "sql"} <= categories


@pytest.mark.parametrize("row", CORPUS, ids=[row["format"] for row in CORPUS])
def test_every_sensitive_value_of_the_corpus_is_fully_replaced(row: dict[str, object]) -> None:
    line = row["line"]
    assert isinstance(line, str)
    redacted = Redactor().redact(line)
    values = row["values"]
    assert isinstance(values, list)
    for value in values:
        assert _leaks(value, redacted) == [], f"{row['format']}: {redacted!r}"
    placeholder = row["placeholder"]
    assert isinstance(placeholder, str)
    assert placeholder in redacted


@pytest.mark.parametrize("row", KEEP, ids=[row["format"] for row in KEEP])
def test_no_must_not_redact_value_is_altered(row: dict[str, object]) -> None:
    line = row["line"]
    assert isinstance(line, str)
    redacted = Redactor().redact(line)
    values = row["values"]
    assert isinstance(values, list)
    for value in values:
        assert value in redacted, f"{row['format']}: {redacted!r}"


def test_one_redactor_gives_the_same_result_for_a_line_seen_twice() -> None:
    redactor = Redactor()
    lines = [row["line"] for row in CORPUS]
    first = [redactor.redact(line) for line in lines]
    second = [redactor.redact(line) for line in lines]
    assert first == second
