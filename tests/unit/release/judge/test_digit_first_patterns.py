"""The number and time patterns of evidence text begin with the digit they match (so a scan
skips to digits) and find exactly what their plain forms find: a lookbehind before the first
digit becomes one over that digit and the character before it."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from factledger.domain.release.judge.instants import _ANY_TIME
from factledger.domain.release.judge.quantities import _NUMBER, _UNIT_ALT

PLAIN_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
    r"|(?<![\d.])\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?!\d)"
)
PLAIN_NUMBER = re.compile(
    r"(?<![\w.\-/#])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s?(" + _UNIT_ALT + r")(?!\w))?"
    r"(?!\w|\.\d)",
    re.IGNORECASE,
)
TEXTS = st.text(alphabet="0123456789012345-:.,/#_ TZ+amsGiBk%x\n", max_size=40)
WRITTEN = [
    "at 2026-03-14T09:40:12.5Z and 09:41, then 9:42:03.25 (2026-03-14 10:00+01:00)",
    "waited_ms=2000 idle=0 1,024 KiB 3.5GB 12ms 7 s v1.2.3 #45 /v2 x-9 50% 2.5e3",
    "0 00:00 1:2 123:45 12:345 2026-3-14 2026-03-14T09 1.5.6 .5 5.",
]


def _times(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


def _numbers(pattern: re.Pattern[str], text: str) -> list[object]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


@settings(max_examples=600)
@given(TEXTS)
def test_the_time_pattern_finds_what_its_plain_form_finds(text: str) -> None:
    assert _times(_ANY_TIME, text) == _times(PLAIN_TIME, text)


@settings(max_examples=600)
@given(TEXTS)
def test_the_number_pattern_finds_what_its_plain_form_finds(text: str) -> None:
    assert _numbers(_NUMBER, text) == _numbers(PLAIN_NUMBER, text)


def test_written_times_and_numbers_are_found_alike() -> None:
    for text in WRITTEN:
        assert _times(_ANY_TIME, text) == _times(PLAIN_TIME, text)
        assert _numbers(_NUMBER, text) == _numbers(PLAIN_NUMBER, text)


def test_both_patterns_begin_with_a_digit() -> None:
    assert _ANY_TIME.pattern.startswith(r"\d(")
    assert _NUMBER.pattern.startswith(r"(\d(")
