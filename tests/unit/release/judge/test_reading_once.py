"""A call's strings read one by one (each remembered by text) give the reading of the joined
text, also where a word or an instant spans two strings; a string's numbers are read once."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.judge.evidence import view_of
from factledger.domain.release.judge.instants import evidence_instants
from factledger.domain.release.judge.quantities import text_quantities
from factledger.domain.release.judge.text_parts import (
    compounds,
    text_compounds,
    text_instants,
    text_stems,
)
from factledger.domain.release.judge.words import joined_timeout, stem

PARTS: list[tuple[str, ...]] = [
    ("GW-504 acquirer call failed: pool exhausted", "idle=0 waited_ms=2000"),
    ("the upstream call timed", "out after 5000ms"),
    ("the upstream call TIME", "OUT after 5000ms"),
    ("retries timed out", "out of slots"),
    ("a time", "outage", "time-out"),
    ("", "timed", "", "out"),
    ("window 2026-03-14", "09:40:00 to 2026-03-14 09:55:00Z"),
    ("first seen 2026-03-14T09:40:00Z", "last at 11:02"),
    ("counted 14", "32 rows"),
    ("nothing dated", "here"),
    ("Card-Gateway calls", "payments-api -", "- ledger-db", "x-"),
]


def _joined_stems(texts: tuple[str, ...]) -> frozenset[str]:
    joined = joined_timeout(" ".join(texts)).lower()
    return frozenset(stem(word) for word in re.findall(r"[A-Za-z][A-Za-z']*", joined))


@pytest.mark.parametrize("texts", PARTS)
def test_stems_by_string_are_the_stems_of_the_joined_text(texts: tuple[str, ...]) -> None:
    assert text_stems(texts) == _joined_stems(texts)


def test_a_timeout_spanning_two_strings_is_one_word() -> None:
    assert "timeout" in text_stems(("the call timed", "out"))
    assert "out" not in text_stems(("the call timed", "out"))


@pytest.mark.parametrize("texts", PARTS)
def test_instants_by_string_are_the_instants_of_the_joined_text(texts: tuple[str, ...]) -> None:
    assert text_instants(texts) == evidence_instants(" ".join(texts))


def test_a_date_and_a_time_in_two_strings_are_one_instant() -> None:
    found = text_instants(("window 2026-03-14", "09:40:00"))
    assert found == (datetime(2026, 3, 14, 9, 40, tzinfo=UTC),)


@pytest.mark.parametrize("texts", PARTS)
def test_names_by_string_are_the_names_of_the_joined_text(texts: tuple[str, ...]) -> None:
    assert text_compounds(texts) == compounds(" ".join(texts).lower())


def test_a_strings_numbers_are_read_once() -> None:
    text = "GW-504 acquirer call failed: pool exhausted (active=64 idle=0 waited_ms=2000)"
    first = text_quantities(text)
    assert first is text_quantities(text)
    assert [q.value for q in first] == [64.0, 0.0, 2000.0]


def test_two_calls_with_one_excerpt_read_it_alike() -> None:
    excerpt: JsonObject = {
        "excerpt": "Pool exhausted: requests timed out after 2000 ms.",
        "section": "A",
    }
    one = view_of({"evidence": [excerpt]}, {"query": "pool"})
    two = view_of({"evidence": [excerpt, {"excerpt": "other", "section": "B"}]}, {"query": "x"})
    assert one.stems <= two.stems
    assert set(one.quantities) <= set(two.quantities)
