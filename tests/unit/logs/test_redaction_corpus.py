"""The redaction corpus: no sensitive value leaks and must-keep values stay, on the whole
corpus and on the families held out by name."""

from __future__ import annotations

import json

import pytest

from factledger.domain.logs.redaction import Redactor
from tests.support.redaction_corpus import DATA, Row, generate, held_out, kept, leaked, load

ROWS = load()
SECRETS = [row for row in ROWS if row["kind"] == "secret"]
KEEPS = [row for row in ROWS if row["kind"] == "keep"]


def _leaking(rows: list[Row]) -> list[str]:
    found = []
    for row in rows:
        redacted = Redactor().redact(row["line"])
        if leaked(row, redacted):
            found.append(f"{row['format']}: {redacted!r}")
    return found


def _keep_rate(rows: list[Row]) -> tuple[float, list[str]]:
    broken = [
        f"{row['format']}: {Redactor().redact(row['line'])!r}"
        for row in rows
        if not kept(row, Redactor().redact(row["line"]))
    ]
    return 1 - len(broken) / len(rows), broken


def test_the_corpus_is_large_and_varied() -> None:
    assert len(SECRETS) >= 500
    assert len(KEEPS) >= 200
    assert len({row["family"] for row in SECRETS}) >= 150
    assert len({row["family"] for row in ROWS if held_out(row["family"])}) >= 40


def test_the_generated_part_is_what_the_script_writes() -> None:
    written = [json.loads(line) for line in (DATA / "families.jsonl").read_text().splitlines()]
    assert written == generate()


def test_no_sensitive_value_leaks_anywhere_in_the_corpus() -> None:
    assert _leaking(SECRETS) == []


def test_at_least_99_percent_of_must_keep_lines_stay_intact() -> None:
    rate, broken = _keep_rate(KEEPS)
    assert rate >= 0.99, broken


@pytest.mark.parametrize("kind", ["secret", "keep"])
def test_the_held_out_families_meet_the_same_targets(kind: str) -> None:
    rows = [row for row in ROWS if row["kind"] == kind and held_out(row["family"])]
    assert rows
    if kind == "secret":
        assert _leaking(rows) == []
    else:
        rate, broken = _keep_rate(rows)
        assert rate >= 0.99, broken


def test_a_leak_is_detected_when_a_value_survives() -> None:
    row: Row = {"family": "f", "format": "f", "kind": "secret", "line": "pw x", "values": ["x"]}
    assert leaked(row, "pw x") == ["x"]
    assert leaked(row, "pw <SECRET>") == []


def test_one_redactor_gives_the_same_result_for_a_line_seen_twice() -> None:
    redactor = Redactor()
    lines = [row["line"] for row in ROWS]
    first = [redactor.redact(line) for line in lines]
    second = [redactor.redact(line) for line in lines]
    assert first == second


OLDER = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines()]


def test_the_older_corpus_covers_every_family_the_first_issue_named() -> None:
    categories = {row["category"] for row in OLDER}
    assert {"cloud", "vcs", "saas", "token", "key", "hash", "pair", "http", "env"} <= categories
    assert {"kubernetes", "cli", "url", "identifier", "sql"} <= categories


def test_every_older_value_is_replaced_by_its_typed_placeholder() -> None:
    missing = [
        row["format"] for row in OLDER if row["placeholder"] not in Redactor().redact(row["line"])
    ]
    assert missing == []
