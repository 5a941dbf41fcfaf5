"""Words and instants of a call's strings read as one text joined by spaces, string by string.

A run's calls return the same excerpts and log lines again and again, so each string is read
once (remembered by text) and a call's reading is the union or sequence of its strings'. The
reading of the joined text differs only where a match can span the space between two strings
("timed" + "out", a date + a time of day); when two neighbours could be such a pair, the
joined text is read instead, so the result is always that of the joined text. Hyphenated
names never span a space.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import lru_cache
from itertools import pairwise

from factledger.domain.release.judge.instants import evidence_instants
from factledger.domain.release.judge.words import (
    CLAUSE_SEPARATOR,
    clauses,
    joined_timeout,
    stem,
)

__all__ = ["compounds", "text_clauses", "text_compounds", "text_instants", "text_stems"]

_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
_COMPOUND = re.compile(r"(?<![\w-])(?=[a-z][a-z0-9]*-)[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+(?![\w-])")
_REMEMBERED = 4096
_DASHES = frozenset("-\u2013\u2014")


_PHRASAL = re.compile(r"\b([a-z]{2,})\s(back|out|up|down|over|off)\b")
_INFLECTED = re.compile(r"(?<=[a-z]{2})(?:ed|ing|s)$")
"""A verb and its particle ("rolled back", "failed over"): also read as the noun the two
make ("rollback", "failover"), as a claim writes it."""
_PARTICLE = re.compile(r"(?:back|out|up|down|over|off)\b", re.IGNORECASE)


def _spans_words(left: str, right: str) -> bool:
    """True when a verb ending ``left`` and a particle opening ``right`` could be joined
    ("timed" + "out", "rolled" + "back")."""
    return left[-1:].isalpha() and _PARTICLE.match(right) is not None


def _spans_instant(left: str, right: str) -> bool:
    """True when a date ending ``left`` and a time of day opening ``right`` could be joined."""
    return left[-1:].isdigit() and right[:1].isdigit()


def _by_parts(texts: Sequence[str], spans: Callable[[str, str], bool]) -> bool:
    return not any(spans(left, right) for left, right in pairwise(texts))


@lru_cache(maxsize=_REMEMBERED)
def _stems(text: str) -> frozenset[str]:
    lowered = joined_timeout(text).lower()
    found = set(_WORD.findall(lowered))
    found.update(_INFLECTED.sub("", verb) + part for verb, part in _PHRASAL.findall(lowered))
    return frozenset(map(stem, found))


def text_stems(texts: Sequence[str]) -> frozenset[str]:
    """Every folded word of ``texts`` joined by spaces ("timed out" read as one word)."""
    if not _by_parts(texts, _spans_words):
        return _stems(" ".join(texts))
    return frozenset().union(*map(_stems, texts))


@lru_cache(maxsize=_REMEMBERED)
def _instants(text: str) -> tuple[datetime, ...]:
    return evidence_instants(text)


def text_instants(texts: Sequence[str]) -> tuple[datetime, ...]:
    """Every instant of ``texts`` joined by spaces, in order."""
    if not _by_parts(texts, _spans_instant):
        return evidence_instants(" ".join(texts))
    return tuple(instant for text in texts for instant in _instants(text))


@lru_cache(maxsize=_REMEMBERED)
def compounds(text: str) -> frozenset[str]:
    """The hyphenated names of a lower-cased text (``index-svc``, ``card-gateway``)."""
    if "-" not in text:
        return frozenset()  # a name has a hyphen
    return frozenset(_COMPOUND.findall(text))


def text_compounds(texts: Sequence[str]) -> frozenset[str]:
    """The hyphenated names of ``texts`` joined by spaces and lower-cased (a name never spans
    the space between two strings)."""
    return frozenset().union(*(compounds(text.lower()) for text in texts))


@lru_cache(maxsize=_REMEMBERED)
def _split(text: str) -> tuple[tuple[str, ...], bool]:
    """The clauses of ``text`` split at every separator, and whether its last separator is a
    newline ending it, alone."""
    parts: list[str] = []
    start, lone = 0, False
    for match in CLAUSE_SEPARATOR.finditer(text):
        parts.append(text[start : match.start()])
        start = match.end()
        lone = start == len(text) and match.group() == "\n"
    parts.append(text[start:])
    return tuple(part for part in parts if part.strip()), lone


def text_clauses(texts: Sequence[str]) -> tuple[str, ...]:
    """The clauses of ``texts`` joined by newlines (``words.clauses``), string by string.

    Each string is split with the newline after it: a separator can end on that newline
    ("done." + newline) but never reaches past it, except a newline the scan reaches alone
    before a dash and a space (a list item): the newline, dash and space are one separator,
    and the next string is read from after them. A lone dash between two strings (whose
    separator would take the next newline too) is read in the joined text."""
    if not any(" " in text for text in texts):
        joined = "\n".join(texts)
        return (joined,) if joined else ()
    if any(text in _DASHES for text in texts[1:-1]):
        return clauses("\n".join(texts))
    found: list[str] = []
    skip = 0
    for index, text in enumerate(texts):
        last = index == len(texts) - 1
        parts, lone = _split(text[skip:] if last else text[skip:] + "\n")
        found.extend(parts)
        after = "" if last else texts[index + 1]
        skip = 2 if lone and after[:1] in _DASHES and after[1:2].isspace() else 0
    return tuple(found)
