"""The shortcuts of word reading read as the full reading: a plain content word (no negation,
function, failure, light or meta word) skips the checks that cannot apply to it, and a text
holding nothing a clause separator begins with is one clause without a scan."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from factledger.domain.release.judge import words as reading
from factledger.domain.release.judge.words import Marks, stem, word_marks

WRITTEN = (
    "not no never without cannot don't isn't zero the a of is was be been go went fails failed "
    "failing log logs shows row count pool exhausted renewal idle connection timeout timed out "
    "more than above below higher 9,060 ms 42 2026 but while whereas But - – — , ; : . ( ) | "
    "card-gateway db_pool Retry RETRIED it's to unable against flushing trouble created at all"
)
VOCABULARY = tuple(WRITTEN.split(" "))
SENTENCES = st.lists(st.sampled_from(VOCABULARY), max_size=18).map(" ".join)
SEPARATED = st.text(alphabet="ab wutilehrs.;:!?()[]|,\n-\u2013\u2014\t", max_size=30)


def _full_reading(text: str) -> list[Marks]:
    """Every word through every check (the reading without the plain-word shortcut)."""
    found: list[Marks] = []
    if "tim" in text.lower():
        text = reading.joined_timeout(text)
    for clause_start, clause in reading._split_spans(text):
        left, denied, failing, previous = 0, False, False, ""
        for match in reading._WORD.finditer(clause):
            raw, low = match.group(), match.group().lower()
            prior, previous = previous, low
            plain = low not in reading._MARKING and not low.endswith("n't")
            was_failing = failing
            if not plain:
                failing = low == "to" and prior in reading._FAILED_TO
            if low == "all" and prior == "at":
                left = 0
                continue
            if low == "without" and denied:
                left = 0
                continue
            if low in reading._NEGATION or low.endswith("n't"):
                end = match.end()
                bounds = (low == "no" and reading._BOUND_THAN.match(clause, end) is not None) or (
                    low == "against" and reading._COMPARED.match(clause, end) is not None
                )
                if not (reading._BOUND_AFTER.match(clause, end) or bounds):
                    left, denied = 2, True
                    reading._deny_verb(found, low, prior, clause_start)
                continue
            if low in reading._FAIL_AFTER and found and found[-1][3] >= clause_start:
                found[-1] = (*found[-1][:5], True)
            if low in reading._STOP or low.isdigit():
                continue
            if plain:
                denies = was_failing or (left > 0 and not reading._trouble_free(found, low, left))
                start = clause_start + match.start()
                found.append((raw, stem(raw), denies, start, left == 2 or was_failing, False))
                left, failing = max(0, left - 1), False
                continue
            head = left == 2 and low not in reading._LIGHT
            found.append((raw, stem(raw), left > 0, clause_start + match.start(), head, False))
            if not (left == 2 and low in reading._LIGHT) and low not in reading.META:
                left = max(0, left - 1)
    return found


@settings(max_examples=800)
@given(SENTENCES)
def test_the_plain_word_shortcut_reads_as_the_full_reading(text: str) -> None:
    assert word_marks(text) == _full_reading(text)


@settings(max_examples=800)
@given(SEPARATED)
def test_a_text_without_separator_characters_is_one_clause(text: str) -> None:
    assert list(reading._clause_spans(text)) == list(reading._split_spans(text))


def test_each_separator_splits_a_text_the_shortcut_would_keep_whole() -> None:
    for separator in (". ", "; ", ", ", " - ", " \u2013 ", " \u2014 ", "\n", " but ", " while "):
        text = f"pool exhausted{separator}renewal failed"
        assert len(list(reading._clause_spans(text))) == 2, separator
