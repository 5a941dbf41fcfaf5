"""The embedded knowledge backend: a folder of runbooks in an SQLite FTS5 index.

At start-up every runbook below the folder (``corpus``) is split into sections and chunks
and written to an in-memory FTS5 table (``porter unicode61`` tokenizer: case, diacritics and
common English endings do not matter). A search

1. turns the model's text into words (``query``: never FTS5 syntax);
2. leaves out of the candidate selection the words found in at least half of the chunks
   (bm25 gives them no weight: FTS5 clamps their inverse document frequency to almost zero),
   unless every word is that common — they would only add candidates that score nothing;
3. ranks the chunks that hold any remaining word (or compound) with bm25 (title ×1, section
   path ×2, text ×1), equal scores in index order (document path, then position in the
   document), and reads the text of the best ``limit`` only;
4. tells which query words each of those hits holds in its own section path or text, with
   the same tokenizer (the hits are indexed alone in a scratch table), and derives each hit's
   relevance level from its score and that coverage (``relevance``).

The raw result is the format of ``factledger.ports.knowledge``; ``score`` there is ``-bm25``
(higher is better).

Time: a search gives up by itself when its time limit runs out — an SQLite progress handler
checks the deadline every ``progress_steps`` virtual-machine steps and interrupts the
statement — so it can run in the calling thread. One connection serves every thread; searches
take turns, and a search that cannot get its turn within its time limit ends as
BACKEND_TIMEOUT too.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Final, Self

from attrs import field, frozen
from returns.result import Failure, Result, Success

from factledger.adapters.knowledge.corpus import Chunk, read_corpus
from factledger.adapters.knowledge.query import (
    SearchTerms,
    fts_string,
    match_expression,
    search_terms,
)
from factledger.adapters.knowledge.relevance import RelevanceRule, derive_relevance
from factledger.domain.knowledge.number_checks import at_least_one
from factledger.domain.knowledge.raw_format import RawKnowledgeHit, encode_raw_result
from factledger.domain.tool_result import BackendFailure, BackendFailureKind

__all__ = [
    "SEARCH_FAILED",
    "IndexStats",
    "KnowledgeIndexFailure",
    "KnowledgeIndexFailureCode",
    "KnowledgeIndexOptions",
    "SqliteKnowledgeBackend",
]

SEARCH_FAILED: Final = "SEARCH_FAILED"
"""The reason code of a BACKEND_ERROR: the index could not answer (closed, or an SQLite
error); the error itself is never passed on."""

_TOKENIZER: Final = "porter unicode61 remove_diacritics 2"
_SCHEMA: Final = (
    "CREATE VIRTUAL TABLE knowledge USING fts5("
    "title, section, text, document_id UNINDEXED, chunk_id UNINDEXED, "
    f"tokenize = '{_TOKENIZER}')",
    # Scratch space for the few hits of one search, to tell which query words each holds
    # (contentless: only the index is kept, and emptied after every search).
    f"CREATE VIRTUAL TABLE hit_words USING fts5(section, text, content = '', "
    f"tokenize = '{_TOKENIZER}')",
)
_INSERT: Final = (
    "INSERT INTO knowledge (rowid, title, section, text, document_id, chunk_id) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)
_RANK: Final = (
    "SELECT rowid, bm25(knowledge, 1.0, 2.0, 1.0) AS bm25_score "
    "FROM knowledge WHERE knowledge MATCH ? ORDER BY bm25_score, rowid LIMIT ?"
)
_FREQUENCY: Final = "SELECT count(*) FROM knowledge WHERE knowledge MATCH ?"
_MAX_REMEMBERED_WORDS: Final = 65_536
_FETCH: Final = (
    "SELECT rowid, document_id, title, section, chunk_id, text "
    "FROM knowledge WHERE rowid IN (SELECT value FROM json_each(?))"
)
_HIT_WORDS_INSERT: Final = "INSERT INTO hit_words (rowid, section, text) VALUES (?, ?, ?)"
_HIT_WORDS_MATCH: Final = "SELECT ?, rowid FROM hit_words WHERE hit_words MATCH ?"
_HIT_WORDS_CLEAR: Final = "INSERT INTO hit_words (hit_words) VALUES ('delete-all')"


@frozen
class KnowledgeIndexOptions:
    """How runbooks are indexed and searched."""

    max_chunk_chars: int = field(default=1200, validator=at_least_one)
    """Characters of one indexed chunk; a longer section is cut into several."""
    max_file_bytes: int = field(default=1_048_576, validator=at_least_one)
    """A larger runbook file is skipped (and listed in ``IndexStats.skipped``)."""
    max_query_terms: int = field(default=16, validator=at_least_one)
    """Distinct words of a query searched for; later ones are ignored."""
    max_query_chars: int = field(default=1000, validator=at_least_one)
    """Characters of a query read; the rest is ignored."""
    max_limit: int = field(default=50, validator=at_least_one)
    """Most hits one search returns, whatever the caller asks."""
    relevance: RelevanceRule = field(factory=RelevanceRule)
    """How scores become relevance levels."""
    progress_steps: int = field(default=1000, validator=at_least_one)
    """SQLite virtual-machine steps between two checks of a search's deadline."""


class KnowledgeIndexFailureCode(StrEnum):
    """Why the index could not be built."""

    FOLDER_NOT_FOUND = "FOLDER_NOT_FOUND"
    """The configured folder does not exist."""
    NOT_A_FOLDER = "NOT_A_FOLDER"
    """The configured path is not a folder."""
    INDEX_FAILED = "INDEX_FAILED"
    """SQLite could not build the index."""


@frozen
class KnowledgeIndexFailure:
    """The index of a folder could not be built."""

    code: KnowledgeIndexFailureCode
    """What went wrong."""
    folder: str
    """The folder, as configured."""


@frozen
class IndexStats:
    """What the index holds."""

    documents: int
    """Documents indexed."""
    sections: int
    """Non-empty sections over all documents."""
    chunks: int
    """Chunks indexed (a long section gives several)."""
    skipped: tuple[str, ...]
    """Runbook files not indexed (unreadable, or larger than ``max_file_bytes``)."""


class _Deadline:
    """The progress handler of one search: interrupts the statement once time is up."""

    __slots__ = ("_at", "_clock", "expired")

    def __init__(self, clock: Callable[[], float], at: float) -> None:
        self._clock = clock
        self._at = at
        self.expired = False

    def __call__(self) -> int:
        if self._clock() >= self._at:
            self.expired = True
            return 1
        return 0


class SqliteKnowledgeBackend:
    """Searches the runbooks of one folder (a ``KnowledgeBackend``)."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        stats: IndexStats,
        options: KnowledgeIndexOptions,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._connection = connection
        self._stats = stats
        self._options = options
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        self._frequencies: dict[str, int] = {}

    @classmethod
    def from_folder(
        cls,
        folder: Path,
        options: KnowledgeIndexOptions | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Result[Self, KnowledgeIndexFailure]:
        """The backend over every runbook below ``folder``, indexed now, in memory."""
        options = options or KnowledgeIndexOptions()
        if not folder.exists():
            return Failure(
                KnowledgeIndexFailure(KnowledgeIndexFailureCode.FOLDER_NOT_FOUND, str(folder))
            )
        if not folder.is_dir():
            return Failure(
                KnowledgeIndexFailure(KnowledgeIndexFailureCode.NOT_A_FOLDER, str(folder))
            )
        corpus = read_corpus(folder, options.max_chunk_chars, options.max_file_bytes)
        connection = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        try:
            _build_index(connection, corpus.chunks)
        except sqlite3.Error:
            connection.close()
            return Failure(
                KnowledgeIndexFailure(KnowledgeIndexFailureCode.INDEX_FAILED, str(folder))
            )
        stats = IndexStats(corpus.documents, corpus.sections, len(corpus.chunks), corpus.skipped)
        return Success(cls(connection, stats, options, clock))

    @property
    def stats(self) -> IndexStats:
        """What the index holds."""
        return self._stats

    def search(self, query: str, limit: int, timeout_seconds: float) -> Result[str, BackendFailure]:
        """At most ``limit`` hits (clamped to 1 … ``max_limit``) for ``query``, best first,
        as raw JSON; BACKEND_TIMEOUT when ``timeout_seconds`` ran out first."""
        started = self._clock()
        if not timeout_seconds > 0:  # also refuses NaN
            return Failure(BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))
        query = _encodable(query)
        terms = search_terms(query, self._options.max_query_terms, self._options.max_query_chars)
        if terms.is_empty:
            return Success(encode_raw_result(query, ()))
        limit = min(max(limit, 1), self._options.max_limit)
        if not self._lock.acquire(timeout=min(timeout_seconds, threading.TIMEOUT_MAX)):
            return Failure(BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))
        deadline = _Deadline(self._clock, started + timeout_seconds)
        try:
            if self._closed:
                return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, SEARCH_FAILED))
            self._connection.set_progress_handler(deadline, self._options.progress_steps)
            hits = self._ranked_hits(terms, limit)
        except sqlite3.Error:
            if deadline.expired:
                return Failure(BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))
            return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, SEARCH_FAILED))
        finally:
            if not self._closed:
                self._connection.set_progress_handler(None, 0)
                self._clear_hit_words()
            self._lock.release()
        return Success(encode_raw_result(query, hits))

    def close(self) -> None:
        """Free the index; later searches fail with BACKEND_ERROR."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._connection.close()

    def _ranked_hits(self, terms: SearchTerms, limit: int) -> tuple[RawKnowledgeHit, ...]:
        connection = self._connection
        ranked: list[tuple[int, float]] = connection.execute(
            _RANK, (match_expression(self._weighted(terms)), limit)
        ).fetchall()
        if not ranked:
            return ()
        wanted = json.dumps([rowid for rowid, _ in ranked])
        rows: dict[int, tuple[str, str, str, str, str]] = {
            rowid: rest for rowid, *rest in connection.execute(_FETCH, (wanted,))
        }
        matched = self._matched_terms(terms, rows)
        best = -ranked[0][1]
        rule = self._options.relevance
        hits: list[RawKnowledgeHit] = []
        for rowid, bm25_score in ranked:
            document_id, title, section, chunk_id, text = rows[rowid]
            score = -bm25_score
            hits.append(
                RawKnowledgeHit(
                    document_id=document_id,
                    title=title,
                    section=section,
                    chunk_id=chunk_id,
                    text=text,
                    score=round(score, 6),
                    relevance_level=derive_relevance(
                        score, best, matched.get(rowid, 0), len(terms.terms), rule
                    ),
                )
            )
        return tuple(hits)

    def _weighted(self, terms: SearchTerms) -> SearchTerms:
        """``terms`` without the words found in at least half of the chunks, unless every word
        is: bm25 gives such a word no weight (FTS5 clamps its inverse document frequency to
        almost zero), so it would only add candidates that score nothing. The words still
        count for coverage. A word's chunk count is looked up once and remembered (the index
        never changes)."""
        half = self._stats.chunks / 2
        weighted = tuple(term for term in terms.terms if self._frequency(term) < half)
        if not weighted or len(weighted) == len(terms.terms):
            return terms
        return SearchTerms(weighted, terms.phrases)

    def _frequency(self, term: str) -> int:
        known = self._frequencies.get(term)
        if known is not None:
            return known
        (count,) = self._connection.execute(_FREQUENCY, (fts_string(term),)).fetchone()
        if len(self._frequencies) >= _MAX_REMEMBERED_WORDS:
            self._frequencies.clear()
        self._frequencies[term] = count
        return int(count)

    def _matched_terms(
        self, terms: SearchTerms, rows: dict[int, tuple[str, str, str, str, str]]
    ) -> dict[int, int]:
        """How many of the query's words each hit contains in its own section path or text
        (the title is shared by every chunk of a document, so it does not count), with the
        index's own tokenizer: the hits are indexed alone in a scratch table and each word is
        looked up there."""
        connection = self._connection
        connection.execute(_HIT_WORDS_CLEAR)  # in case an earlier search could not clear it
        connection.executemany(
            _HIT_WORDS_INSERT, ((rowid, row[2], row[4]) for rowid, row in rows.items())
        )
        statement = " UNION ALL ".join([_HIT_WORDS_MATCH] * len(terms.terms))
        parameters: list[int | str] = []
        for index, term in enumerate(terms.terms):
            parameters.extend((index, fts_string(term)))
        counts: dict[int, int] = {}
        for _, rowid in connection.execute(statement, parameters):
            counts[rowid] = counts.get(rowid, 0) + 1
        return counts

    def _clear_hit_words(self) -> None:
        """Empty the scratch table once the search is over, with no time limit in force, so
        that an interrupted search does not keep its hits in memory. The next search empties
        it again before use, so a failure here changes no answer."""
        with contextlib.suppress(sqlite3.Error):
            self._connection.execute(_HIT_WORDS_CLEAR)


def _encodable(text: str) -> str:
    """``text`` with any lone surrogate (JSON lets a client send one) made ``?``, so that the
    raw result always encodes as UTF-8."""
    if text.isascii():
        return text
    return text.encode("utf-8", errors="replace").decode("utf-8")


def _build_index(connection: sqlite3.Connection, chunks: Sequence[Chunk]) -> None:
    for statement in _SCHEMA:
        connection.execute(statement)
    connection.execute("BEGIN")
    connection.executemany(
        _INSERT,
        (
            (rowid, chunk.title, chunk.section, chunk.text, chunk.document_id, chunk.chunk_id)
            for rowid, chunk in enumerate(chunks, start=1)
        ),
    )
    connection.execute("COMMIT")
    connection.execute("INSERT INTO knowledge (knowledge) VALUES ('optimize')")
