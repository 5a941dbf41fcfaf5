"""One clause read: its stems, the affirmed ones, the denied ones (negated, or followed by
"failed", or fields of value zero) and the heads of its negations, as its words give them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from factledger.domain.release.judge.evidence import Clause, clause_of
from factledger.domain.release.judge.words import content_stems, words
from factledger.domain.release.judge.zero_fields import zero_keys

WRITTEN = (
    "not no never without the a is be go went fails failed renewal pool exhausted idle=0 "
    "free: 0 waited_ms=2000 more than 9,060 ms gradually above log shows but , . connection"
)
SENTENCES = st.lists(st.sampled_from(WRITTEN.split(" ")), max_size=14).map(" ".join)


def _read(text: str, negated: bool) -> Clause:
    """The clause as defined: sets of the stems of its words, with the zero fields."""
    found = words(text)
    stems = frozenset(w.stem for w in found)
    zeros = frozenset().union(*(content_stems(k.replace("_", " ")) for k in zero_keys(text)))
    if negated:
        return Clause(text.lower(), stems | zeros, frozenset(), stems | zeros, stems | zeros)
    return Clause(
        text.lower(),
        stems | zeros,
        frozenset(w.stem for w in found if not w.negated),
        frozenset(w.stem for w in found if w.negated or w.failed) | zeros,
        frozenset(w.stem for w in found if w.head) | zeros,
    )


@settings(max_examples=600)
@given(SENTENCES, st.booleans())
def test_a_clause_reads_as_its_words(text: str, negated: bool) -> None:
    assert clause_of(text, negated) == _read(text, negated)


def test_a_word_before_failed_is_denied_and_affirmed() -> None:
    clause = clause_of("the renewal failed")
    assert "renew" in clause.negative
    assert "renew" in clause.positive
    assert not clause.heads
