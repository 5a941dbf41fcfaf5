"""The model's free text → an FTS5 MATCH expression that can only look for words.

The query is never handed to FTS5 as written. It is normalised (NFKC), split into words the
way the index's ``unicode61`` tokenizer splits text (runs of letters and digits; everything
else — quotes, ``*``, ``^``, ``:``, ``-``, ``+``, parentheses, emoji — separates), and each
word is written as an FTS5 string (``"word"``), where no character is an operator: ``OR``,
``NOT``, ``NEAR``, column filters (``title:``) and prefix stars lose their meaning and become
words or nothing. Common English words are dropped; a query left without a word has no
usable term and finds nothing (a normal, empty result).

The expression ORs the words (any may match; bm25 ranks the hits that match more, rarer
words higher) plus, for each word written with inner punctuation (``GW-504``,
``card-gateway``, ``pool.max_size``), the phrase of its parts, so that the exact compound
ranks above its parts found apart.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from attrs import frozen

__all__ = ["STOP_WORDS", "SearchTerms", "fts_string", "match_expression", "search_terms"]

_TOKEN: Final = re.compile(r"[^\W_]+")
_MAX_TOKEN_CHARS: Final = 64
_MAX_PHRASE_TOKENS: Final = 6

_STOP_WORD_LIST: Final = """
a about after again all also am an and any are as at be been before being but by can
could did do does doing during each for from had has have having he her here him his how
i if in into is it its just me my nor not of on once only or our out over own please she should
so some such than that the their them then there these they this those through to too
under until up very was we were what when where which while who whom why will with would
you your
"""
STOP_WORDS: Final = frozenset(_STOP_WORD_LIST.split())
"""Words too common to say anything about a runbook; dropped from the terms (not from phrases)."""


@frozen
class SearchTerms:
    """What a query looks for."""

    terms: tuple[str, ...]
    """Distinct case-folded words, in query order, without stop words."""
    phrases: tuple[tuple[str, ...], ...]
    """Distinct compounds (words written with inner punctuation), as their parts."""

    @property
    def is_empty(self) -> bool:
        """True when there is no usable term: the query finds nothing."""
        return not self.terms


def search_terms(query: str, max_terms: int = 16, max_chars: int = 1000) -> SearchTerms:
    """The words and compounds of ``query`` (its first ``max_chars`` characters), at most
    ``max_terms`` words and ``max_terms // 2`` compounds, first come first kept."""
    text = unicodedata.normalize("NFKC", query[:max_chars])
    terms: list[str] = []
    phrases: list[tuple[str, ...]] = []
    for word in text.split():
        tokens = tuple(
            token.casefold() for token in _TOKEN.findall(word) if len(token) <= _MAX_TOKEN_CHARS
        )
        for token in tokens:
            if _usable(token) and token not in terms and len(terms) < max_terms:
                terms.append(token)
        if (
            2 <= len(tokens) <= _MAX_PHRASE_TOKENS
            and any(_usable(token) for token in tokens)
            and tokens not in phrases
            and len(phrases) < max_terms // 2
        ):
            phrases.append(tokens)
    if not terms:
        return SearchTerms((), ())
    return SearchTerms(tuple(terms), tuple(phrases))


def _usable(token: str) -> bool:
    return token not in STOP_WORDS and (len(token) > 1 or token.isdigit())


def fts_string(text: str) -> str:
    """``text`` as an FTS5 string: double-quoted, inner double quotes doubled. Inside a
    string FTS5 sees only tokens (a phrase when there are several), never operators."""
    return '"' + text.replace('"', '""') + '"'


def match_expression(terms: SearchTerms) -> str:
    """The MATCH expression for ``terms``: every word and compound as a string, ORed."""
    parts = [fts_string(term) for term in terms.terms]
    parts.extend(fts_string(" ".join(phrase)) for phrase in terms.phrases)
    return " OR ".join(parts)
