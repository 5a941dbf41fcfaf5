"""The embedded FTS5 backend: indexing, ranking, hostile queries, time limits and failures."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from returns.result import Failure, Success

from factledger.adapters.knowledge import (
    KnowledgeIndexFailureCode,
    KnowledgeIndexOptions,
    SqliteKnowledgeBackend,
)
from factledger.adapters.knowledge.fts_backend import SEARCH_FAILED
from factledger.domain.json_types import JsonObject
from factledger.domain.tool_result import BackendFailure, BackendFailureKind

POOL = """\
# Gateway pool exhaustion

## Symptoms

Requests fail with GW-504 and the log says pool exhausted.

## Remedy

Restart the card-gateway pods one at a time and raise the pool size.
"""
DEADLOCKS = """\
# Ledger deadlocks

## Symptoms

Postings fail with a deadlock on account balances.

## Remedy

Pause the settlement batch.
"""
CERTIFICATES = """\
# Certificate expiry

The client certificate expired; the TLS handshake fails. Renew it and reload.
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("runbooks")
    (folder / "gateway").mkdir()
    (folder / "gateway" / "pool.md").write_text(POOL, encoding="utf-8")
    (folder / "ledger-deadlocks.md").write_text(DEADLOCKS, encoding="utf-8")
    (folder / "certificates.txt").write_text(CERTIFICATES, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def backend(corpus: Path) -> SqliteKnowledgeBackend:
    return SqliteKnowledgeBackend.from_folder(corpus).unwrap()


def _hits(backend: SqliteKnowledgeBackend, query: str, limit: int = 10) -> list[JsonObject]:
    raw = json.loads(backend.search(query, limit, 5.0).unwrap())
    assert raw["query"] == query
    hits: list[JsonObject] = raw["hits"]
    return hits


def _failure(backend: SqliteKnowledgeBackend, query: str, timeout_seconds: float) -> BackendFailure:
    failure = backend.search(query, 10, timeout_seconds).swap().value_or(None)
    assert failure is not None
    return failure


def test_the_index_counts_documents_sections_and_chunks(backend: SqliteKnowledgeBackend) -> None:
    assert (backend.stats.documents, backend.stats.sections, backend.stats.chunks) == (3, 5, 5)


def test_a_hit_carries_document_identity_section_chunk_text_score_and_level(
    backend: SqliteKnowledgeBackend,
) -> None:
    best = _hits(backend, "pool exhausted GW-504")[0]

    assert best == {
        "document_id": "gateway/pool.md",
        "title": "Gateway pool exhaustion",
        "section": "Symptoms",
        "chunk_id": "gateway/pool.md#1.1",
        "text": "Requests fail with GW-504 and the log says pool exhausted.",
        "score": best["score"],
        "relevance_level": "HIGH",
    }
    assert isinstance(best["score"], float)
    assert best["score"] > 0


def test_hits_are_ranked_best_first_and_a_weak_match_is_reference(
    backend: SqliteKnowledgeBackend,
) -> None:
    hits = _hits(backend, "deadlock account balances settlement batch")

    assert [hit["document_id"] for hit in hits] == ["ledger-deadlocks.md"] * 2
    scores = [float(str(hit["score"])) for hit in hits]
    assert scores == sorted(scores, reverse=True)
    assert hits[0]["relevance_level"] in ("HIGH", "MEDIUM")

    weak = _hits(backend, "restart settlement certificate handshake deadlock")
    levels = {hit["chunk_id"]: hit["relevance_level"] for hit in weak}
    assert levels["gateway/pool.md#2.1"] == "REFERENCE"  # one word of five


def test_word_endings_and_case_do_not_matter(backend: SqliteKnowledgeBackend) -> None:
    assert _hits(backend, "DEADLOCKED")[0]["document_id"] == "ledger-deadlocks.md"
    assert _hits(backend, "expires")[0]["document_id"] == "certificates.txt"


def test_a_plain_text_runbook_is_found_under_its_file_name(
    backend: SqliteKnowledgeBackend,
) -> None:
    hit = _hits(backend, "TLS handshake")[0]

    assert (hit["document_id"], hit["title"], hit["section"]) == (
        "certificates.txt",
        "certificates",
        "",
    )


def test_equal_scores_are_ordered_by_document_path_then_position(tmp_path: Path) -> None:
    for name in ("b.md", "a.md", "c/a.md"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("# Same\n\n## One\nidentical text\n", encoding="utf-8")
    first = SqliteKnowledgeBackend.from_folder(tmp_path).unwrap()
    second = SqliteKnowledgeBackend.from_folder(tmp_path).unwrap()

    hits = _hits(first, "identical text")

    assert [hit["document_id"] for hit in hits] == ["a.md", "b.md", "c/a.md"]
    assert first.search("identical text", 10, 5.0) == second.search("identical text", 10, 5.0)


def test_the_limit_is_clamped_between_one_and_the_maximum(tmp_path: Path) -> None:
    for index in range(8):
        (tmp_path / f"doc{index}.md").write_text(f"# Doc {index}\npool text", encoding="utf-8")
    backend = SqliteKnowledgeBackend.from_folder(
        tmp_path, KnowledgeIndexOptions(max_limit=5)
    ).unwrap()

    assert len(_hits(backend, "pool", limit=0)) == 1
    assert len(_hits(backend, "pool", limit=3)) == 3
    assert len(_hits(backend, "pool", limit=1000)) == 5


@pytest.mark.parametrize(
    "query",
    ["", "   ", "\n\t", "🔥", "🔥 💳", "*", '"', '""', "()", "(", ")", "OR", "NOT AND", "the"],
)
def test_a_query_without_a_usable_word_is_a_normal_empty_result(
    backend: SqliteKnowledgeBackend, query: str
) -> None:
    assert backend.search(query, 10, 5.0) == Success(
        json.dumps({"query": query, "hits": []}, ensure_ascii=False, separators=(",", ":"))
    )


@pytest.mark.parametrize(
    "query",
    [
        '"pool',
        'pool"',
        '"pool" "',
        "NEAR(pool exhausted",
        "NEAR(pool exhausted, 1)",
        "NEAR/2 pool",
        "pool*",
        "*pool",
        "pool OR",
        "OR pool",
        "pool AND",
        "pool NOT",
        "-pool",
        "pool -deadlock",
        "title:pool",
        "title : pool",
        "{title section}: pool",
        "knowledge:pool",
        "rank:pool",
        "(pool",
        "pool)",
        "((pool) OR (deadlock",
        "^pool",
        "pool + + exhausted",
        "pool'; DROP TABLE knowledge; --",
        "pool\x00deadlock",
        "pool\\",
        "pool %",
        "pool _",
    ],
)
def test_fts5_syntax_in_a_query_is_read_as_words(
    backend: SqliteKnowledgeBackend, query: str
) -> None:
    hits = _hits(backend, query)

    assert hits, "every query above names a word of the corpus"
    assert _hits(backend, "pool")  # the index is intact afterwards


def test_a_column_filter_does_not_restrict_the_search(backend: SqliteKnowledgeBackend) -> None:
    # As FTS5 syntax this would look for "restart" in titles only, where it never occurs.
    hits = _hits(backend, "title:restart")

    assert [hit["chunk_id"] for hit in hits] == ["gateway/pool.md#2.1"]


def test_not_and_minus_do_not_exclude_documents(backend: SqliteKnowledgeBackend) -> None:
    found = {hit["document_id"] for hit in _hits(backend, "deadlock NOT pool -exhausted")}

    assert found == {"gateway/pool.md", "ledger-deadlocks.md"}


def test_a_star_is_not_a_prefix_search(backend: SqliteKnowledgeBackend) -> None:
    assert _hits(backend, "poo*") == []
    assert _hits(backend, "pool*") != []


@settings(max_examples=150, deadline=None)
@given(query=st.text(max_size=80))
def test_any_text_gives_a_result_never_an_error(query: str) -> None:
    backend = _shared_backend()

    result = backend.search(query, 5, 5.0)

    assert isinstance(result, Success)
    raw = json.loads(result.unwrap())
    assert raw["query"] == query


_SHARED: list[SqliteKnowledgeBackend] = []


def _shared_backend() -> SqliteKnowledgeBackend:
    if not _SHARED:
        from factledger.adapters.demo import DEMO_KNOWLEDGE_DIR

        _SHARED.append(SqliteKnowledgeBackend.from_folder(DEMO_KNOWLEDGE_DIR).unwrap())
    return _SHARED[0]


def _stepping_clock(step: float) -> Callable[[], float]:
    ticks = itertools.count()
    return lambda: next(ticks) * step


def test_a_search_that_runs_past_its_time_limit_is_interrupted(corpus: Path) -> None:
    backend = SqliteKnowledgeBackend.from_folder(
        corpus, KnowledgeIndexOptions(progress_steps=1), clock=_stepping_clock(1.0)
    ).unwrap()

    failure = _failure(backend, "pool exhausted deadlock", timeout_seconds=3.0)

    assert failure == BackendFailure(BackendFailureKind.BACKEND_TIMEOUT)
    # the handler is gone once the search ended: a generous limit succeeds again
    assert isinstance(backend.search("pool", 5, 1e9), Success)


def test_the_time_limit_holds_on_the_real_clock(corpus: Path) -> None:
    backend = SqliteKnowledgeBackend.from_folder(
        corpus, KnowledgeIndexOptions(progress_steps=1)
    ).unwrap()

    assert _failure(backend, "pool exhausted deadlock", timeout_seconds=1e-9) == BackendFailure(
        BackendFailureKind.BACKEND_TIMEOUT
    )
    assert isinstance(backend.search("pool exhausted deadlock", 5, 5.0), Success)


@pytest.mark.parametrize("timeout_seconds", [0.0, -1.0, float("nan")])
def test_no_time_at_all_is_a_timeout_before_anything_runs(
    backend: SqliteKnowledgeBackend, timeout_seconds: float
) -> None:
    assert _failure(backend, "pool", timeout_seconds) == BackendFailure(
        BackendFailureKind.BACKEND_TIMEOUT
    )


def test_a_search_that_cannot_get_its_turn_in_time_is_a_timeout(corpus: Path) -> None:
    inside = threading.Event()
    release = threading.Event()
    calls = itertools.count()

    def clock() -> float:
        if threading.current_thread().name == "holder" and next(calls) == 1:
            inside.set()  # the holder is now inside its search, holding the connection
            release.wait(5.0)
        return time.monotonic()

    backend = SqliteKnowledgeBackend.from_folder(
        corpus, KnowledgeIndexOptions(progress_steps=1), clock=clock
    ).unwrap()
    outcome: list[object] = []
    holder = threading.Thread(
        target=lambda: outcome.append(backend.search("pool", 5, 30.0)), name="holder"
    )
    holder.start()
    assert inside.wait(5.0)

    started = time.monotonic()
    failure = _failure(backend, "pool", timeout_seconds=0.05)
    waited = time.monotonic() - started
    release.set()
    holder.join(5.0)

    assert failure == BackendFailure(BackendFailureKind.BACKEND_TIMEOUT)
    assert waited < 1.0
    assert isinstance(outcome[0], Success)


def test_searches_from_many_threads_give_the_same_answer(backend: SqliteKnowledgeBackend) -> None:
    expected = backend.search("pool exhausted deadlock", 5, 5.0)
    results: list[object] = []

    def search() -> None:
        for _ in range(20):
            results.append(backend.search("pool exhausted deadlock", 5, 5.0))

    threads = [threading.Thread(target=search) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10.0)

    assert results == [expected] * 80


def test_a_closed_backend_fails_with_a_safe_reason(corpus: Path) -> None:
    backend = SqliteKnowledgeBackend.from_folder(corpus).unwrap()
    backend.close()
    backend.close()

    assert _failure(backend, "pool", 5.0) == BackendFailure(
        BackendFailureKind.BACKEND_ERROR, SEARCH_FAILED
    )


def test_a_missing_folder_or_a_file_is_not_an_index(tmp_path: Path) -> None:
    missing = SqliteKnowledgeBackend.from_folder(tmp_path / "absent")
    (tmp_path / "file.md").write_text("# A file", encoding="utf-8")
    not_a_folder = SqliteKnowledgeBackend.from_folder(tmp_path / "file.md")

    assert isinstance(missing, Failure)
    assert missing.failure().code is KnowledgeIndexFailureCode.FOLDER_NOT_FOUND
    assert isinstance(not_a_folder, Failure)
    assert not_a_folder.failure().code is KnowledgeIndexFailureCode.NOT_A_FOLDER


def test_an_empty_folder_is_an_index_that_finds_nothing(tmp_path: Path) -> None:
    backend = SqliteKnowledgeBackend.from_folder(tmp_path).unwrap()

    assert backend.stats.chunks == 0
    assert _hits(backend, "pool") == []


def test_an_interrupted_search_at_any_step_leaves_later_answers_unchanged(corpus: Path) -> None:
    expected = SqliteKnowledgeBackend.from_folder(corpus).unwrap().search("pool deadlock", 5, 5.0)
    backend = SqliteKnowledgeBackend.from_folder(
        corpus, KnowledgeIndexOptions(progress_steps=1), clock=_stepping_clock(1.0)
    ).unwrap()
    outcomes: set[str] = set()

    for steps in range(1, 1500, 2):
        result = backend.search("pool deadlock", 5, float(steps))
        outcomes.add("timeout" if isinstance(result, Failure) else "answer")
        assert backend.search("pool deadlock", 5, 1e9) == expected

    assert outcomes == {"timeout", "answer"}


def test_a_word_in_half_the_chunks_or_more_selects_nothing_beside_rarer_words(
    tmp_path: Path,
) -> None:
    for name, text in (("a", "common alpha"), ("b", "common beta"), ("c", "gamma"), ("d", "x")):
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    backend = SqliteKnowledgeBackend.from_folder(tmp_path).unwrap()

    # "common" is in two chunks of four: bm25 gives it no weight, so it adds no candidate...
    assert [hit["document_id"] for hit in _hits(backend, "common alpha")] == ["a.txt"]
    # ...but it still counts for coverage, and alone it still finds what holds it.
    assert _hits(backend, "common alpha")[0]["relevance_level"] == "HIGH"
    assert [hit["document_id"] for hit in _hits(backend, "common")] == ["a.txt", "b.txt"]


def test_a_lone_surrogate_in_the_query_never_makes_text_that_cannot_be_encoded(
    backend: SqliteKnowledgeBackend,
) -> None:
    raw = backend.search("pool\ud800 exhausted", 5, 5.0).unwrap()

    raw.encode("utf-8")
    assert json.loads(raw)["query"] == "pool? exhausted"
