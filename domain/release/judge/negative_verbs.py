"""The searched action, denied: "never retried an upload", "did not evict any session",
"no failover". Such a negative observation says that the search for that action found
nothing, when the verb (any inflection, the common irregular past tenses) or its noun
written as one word ("failover" for "fail over", "fallback" for "falling back") is a term
of the cited query. A verb the query did not search keeps the claim broader than its scope.
A connective of the query ("due to") may be written in other words ("because of"), and a
participle a message reports its event with ("deadlock detected") is named by the claim's
own verb of reporting ("logged no deadlock", "did not report a deadlock").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

from factledger.domain.release.judge.words import stem

__all__ = ["denies_searched", "named_terms"]

_DENIED = re.compile(
    r"\b(?:never|(?:did|does|do|was|were|is|are|has|have|had)\s*n[o']t)\s+([a-z]+)", re.I
)
_IRREGULAR = {
    "fell": "fall", "ran": "run", "went": "go", "sent": "send", "threw": "throw",
    "broke": "break", "began": "begin", "wrote": "write", "took": "take", "got": "get",
    "came": "come", "left": "leave", "lost": "lose", "held": "hold", "froze": "freeze",
    "rose": "rise", "built": "build", "caught": "catch", "kept": "keep", "spent": "spend",
    "shut": "shut", "hit": "hit", "read": "read", "saw": "see", "found": "find",
}  # fmt: skip
_WORD = re.compile(r"[a-z]+")


def _forms(word: str) -> set[str]:
    """The stems a verb may be searched by (retried → retry, cancelled → cancel)."""
    low = word.lower()
    found = {stem(low), stem(_IRREGULAR.get(low, low))}
    for item in list(found):
        if item.endswith("i"):
            found.add(item[:-1] + "y")
        if len(item) > 3 and item[-1] == item[-2]:
            found.add(item[:-1])
    return found


def _single(item: str) -> str:
    """A stem with a doubled final consonant made single ("skipp" of "skipping" → "skip")."""
    return item[:-1] if len(item) > 3 and item[-1] == item[-2] else item


def _term_forms(query: str) -> set[str]:
    """The stems of the query's terms, a doubled final consonant also single ("skipping" is
    searched as "skip" too)."""
    stems = [stem(word) for word in _WORD.findall(query.lower())]
    return {*stems, *(_single(item) for item in stems)}


def denies_searched(text: str, at: int, query: str) -> bool:
    """True when the denial starting at ``at`` of ``text`` ("never retried", "did not
    evict") denies a verb that is a term of ``query``."""
    found = _DENIED.match(text, at)
    if found is None:
        return False
    return bool(_forms(found.group(1)) & _term_forms(query))


def named_terms(query: str, words: Iterable[str]) -> frozenset[str]:
    """The query's terms a claim names in another form of the word ("retried" for
    "retrying") or by writing two adjacent ones as one word ("failover" names "fail over",
    "fallback" names "falling back")."""
    terms = [stem(word) for word in _WORD.findall(query.lower())]
    given = [word.lower() for word in words]
    written = {form for word in given for form in _forms(word)} | set(given)
    named = {term for term in terms if term in written or _single(term) in written}
    for first, second in pairwise(terms):
        if first + second in written:
            named.update((first, second))
    for phrase, others in _SAME_PHRASE.items():
        if phrase in query.lower() and others & set(given):
            named.update(stem(word) for word in phrase.split())
    if written & _REPORTING:
        named.update(term for term in terms if term in _REPORTED)
    return frozenset(named)


_REPORTED = frozenset(
    stem(word)
    for word in [
        "detected",
        "found",
        "seen",
        "observed",
        "reported",
        "logged",
        "raised",
        "thrown",
        "encountered",
        "occurred",
        "recorded",
        "noticed",
    ]
)
"""Participles a log message reports its event with ("deadlock detected")."""
_REPORTING = frozenset(
    form
    for word in [
        "log",
        "logged",
        "logs",
        "report",
        "reported",
        "reports",
        "detect",
        "detected",
        "show",
        "shows",
        "showed",
        "shown",
        "appear",
        "appears",
        "appeared",
        "record",
        "recorded",
        "see",
        "saw",
        "seen",
        "find",
        "found",
        "raise",
        "raised",
        "occur",
        "occurred",
        "observe",
        "observed",
        "notice",
        "noticed",
    ]
    for form in _forms(word)
)
"""A claim's verbs of reporting: "orders-db did not log a single deadlock" names the
"detected" of a search for "deadlock detected", the report being the claim's own verb."""
_SAME_PHRASE = {
    "due to": frozenset({"because", "owing", "caused", "result"}),
    "because of": frozenset({"due", "owing", "caused", "result"}),
}
"""A connective of the query and the content word of the same connective written in other
words ("canceling statement due to conflict" named by "cancelled because of a conflict")."""
