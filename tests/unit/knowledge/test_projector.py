"""The knowledge projector: bounded blocks, stable identity, de-duplication, normalised
relevance, malformed raw results, and the evidence status recomputed from content."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from returns.result import Failure

from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.knowledge import (
    CONTROL_KEYS,
    MODEL_KEYS,
    KnowledgeLimits,
    knowledge_evidence_status,
    project_knowledge,
)
from factledger.domain.knowledge.projector import DOCUMENT_ID_TOO_LONG
from factledger.domain.knowledge.raw_format import MALFORMED_RAW
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import ProjectedToolResult, ProjectionFailure


def hit(
    document_id: str = "gateway.md",
    text: str = "Restart the pods one at a time.",
    *,
    chunk_id: str | None = None,
    level: str | None = "HIGH",
    level_key: str = "relevance_level",
    title: str | None = "Gateway runbook",
    section: str | None = "Remedy",
    score: float | None = 3.5,
) -> JsonObject:
    entry: JsonObject = {
        "document_id": document_id,
        "title": title,
        "section": section,
        "chunk_id": chunk_id if chunk_id is not None else f"{document_id}#{abs(hash(text))}",
        "text": text,
        "score": score,
    }
    if level is not None:
        entry[level_key] = level
    return entry


def raw(*hits: JsonObject, query: str = "pool exhausted") -> str:
    return json.dumps({"query": query, "hits": list[JsonValue](hits)})


def project(raw_json: str, limits: KnowledgeLimits | None = None) -> ProjectedToolResult:
    return project_knowledge(raw_json, limits).unwrap()


def evidence(result: ProjectedToolResult) -> list[JsonObject]:
    blocks = result.agent_result["evidence"]
    assert isinstance(blocks, list)
    return [block for block in blocks if isinstance(block, dict)]


def test_a_hit_becomes_an_evidence_block_with_identity_excerpt_and_level() -> None:
    result = project(raw(hit()))

    assert result.agent_result == {
        "scope": {"query": "pool exhausted"},
        "evidence": [
            {
                "document_id": "gateway.md",
                "title": "Gateway runbook",
                "section": "Remedy",
                "excerpt": "Restart the pods one at a time.",
                "relevance_level": "HIGH",
            }
        ],
        "relevance_level": "HIGH",
        "truncated": False,
        "truncation": [],
        "returned_count": 1,
    }
    assert result.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    assert result.truncated is False


def test_model_and_control_keys_split_the_agent_result_exactly() -> None:
    result = project(raw(hit()))

    assert set(MODEL_KEYS) | set(CONTROL_KEYS) == set(result.agent_result)
    assert not set(MODEL_KEYS) & set(CONTROL_KEYS)
    assert set(CONTROL_KEYS) == {"returned_count", "truncation"}


def test_raw_scores_and_chunk_ids_never_reach_the_agent_result() -> None:
    text = json.dumps(project(raw(hit(chunk_id="secret-chunk-17", score=12.345))).agent_result)

    assert "secret-chunk-17" not in text
    assert "12.345" not in text
    assert "score" not in text
    assert "chunk" not in text


def test_no_hits_is_no_evidence_with_a_null_level() -> None:
    result = project(raw())

    assert result.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert result.agent_result["evidence"] == []
    assert result.agent_result["relevance_level"] is None
    assert result.agent_result["returned_count"] == 0


def test_hits_with_only_blank_text_are_no_evidence() -> None:
    result = project(raw(hit(text="   \n\t "), hit(text="")))

    assert result.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert result.agent_result["returned_count"] == 2


def test_reference_alone_is_still_evidence_found() -> None:
    result = project(raw(hit(level="REFERENCE")))

    assert result.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    assert result.agent_result["relevance_level"] == "REFERENCE"


def test_the_block_count_is_capped_and_says_why() -> None:
    hits = [hit(f"doc{index}.md", f"text number {index}") for index in range(9)]

    result = project(raw(*hits), KnowledgeLimits(max_blocks=3))

    assert [block["document_id"] for block in evidence(result)] == [
        "doc0.md",
        "doc1.md",
        "doc2.md",
    ]
    assert result.truncated is True
    assert result.agent_result["truncated"] is True
    assert result.agent_result["truncation"] == ["BLOCK_LIMIT"]
    assert result.agent_result["returned_count"] == 9


def test_a_long_excerpt_is_cut_on_a_word_boundary_with_an_ellipsis() -> None:
    text = "Raise the acquirer pool to ninety six connections per pod immediately"

    block = evidence(project(raw(hit(text=text)), KnowledgeLimits(max_excerpt_chars=30)))[0]

    assert block["excerpt"] == "Raise the acquirer pool to…"
    assert isinstance(block["excerpt"], str)
    assert len(block["excerpt"]) <= 30


def test_a_single_overlong_word_is_cut_inside() -> None:
    block = evidence(project(raw(hit(text="x" * 100)), KnowledgeLimits(max_excerpt_chars=10)))[0]

    assert block["excerpt"] == "x" * 9 + "…"


def test_excerpts_are_flattened_to_one_line_without_control_characters() -> None:
    text = "Step 1:\n\n  restart\tthe\x00 pods\u200b\r\n"

    assert evidence(project(raw(hit(text=text))))[0]["excerpt"] == "Step 1: restart the pods"


def test_every_cut_is_named_in_a_stable_order() -> None:
    limits = KnowledgeLimits(
        max_blocks=1, max_excerpt_chars=10, max_title_chars=5, max_query_chars=5
    )
    hits = [hit(title="A very long title", text="many words in this text"), hit(text="other")]

    result = project(raw(*hits, query="a long query text"), limits)

    assert result.agent_result["truncation"] == [
        "BLOCK_LIMIT",
        "EXCERPT_CLIPPED",
        "IDENTITY_CLIPPED",
        "QUERY_CLIPPED",
    ]
    assert result.agent_result["scope"] == {"query": "a lo…"}
    assert evidence(result)[0]["title"] == "A ve…"


def test_a_long_section_path_is_cut_and_counts_as_identity_clipped() -> None:
    result = project(raw(hit(section="Remedy > " * 40)), KnowledgeLimits(max_section_chars=20))

    section = evidence(result)[0]["section"]
    assert isinstance(section, str)
    assert len(section) <= 20
    assert result.agent_result["truncation"] == ["IDENTITY_CLIPPED"]


def test_the_same_chunk_id_counts_once() -> None:
    result = project(raw(hit(chunk_id="c1", text="first"), hit(chunk_id="c1", text="second")))

    assert [block["excerpt"] for block in evidence(result)] == ["first"]
    assert result.agent_result["returned_count"] == 2
    assert result.truncated is False


def test_the_same_text_in_another_chunk_counts_once() -> None:
    result = project(
        raw(
            hit("a.md", "Restart the pods.", chunk_id="a#1", level="REFERENCE"),
            hit("b.md", "  restart THE\npods. ", chunk_id="b#1", level="HIGH"),
            hit("c.md", "Something else.", chunk_id="c#1", level="MEDIUM"),
        )
    )

    assert [block["document_id"] for block in evidence(result)] == ["b.md", "c.md"]


def test_hits_without_chunk_ids_are_deduplicated_by_text() -> None:
    first = hit(text="same text")
    second = hit(text="same  text")
    del first["chunk_id"]
    del second["chunk_id"]

    assert len(evidence(project(raw(first, second)))) == 1


def test_blocks_are_ordered_by_level_then_backend_rank() -> None:
    result = project(
        raw(
            hit("r1.md", "one", level="REFERENCE"),
            hit("m1.md", "two", level="MEDIUM"),
            hit("h1.md", "three", level="HIGH"),
            hit("m2.md", "four", level="MEDIUM"),
            hit("h2.md", "five", level="HIGH"),
        )
    )

    assert [block["document_id"] for block in evidence(result)] == [
        "h1.md",
        "h2.md",
        "m1.md",
        "m2.md",
        "r1.md",
    ]
    assert result.agent_result["relevance_level"] == "HIGH"


@pytest.mark.parametrize(
    ("level", "level_key", "expected"),
    [
        ("HIGH", "relevance_level", "HIGH"),
        ("MEDIUM", "relevanceLevel", "MEDIUM"),
        ("high", "relevanceLevel", "HIGH"),
        (" Medium ", "relevance_level", "MEDIUM"),
        ("REFERENCE", "relevanceLevel", "REFERENCE"),
        ("CRITICAL", "relevance_level", "REFERENCE"),
        ("", "relevance_level", "REFERENCE"),
        (None, "relevance_level", "REFERENCE"),
    ],
)
def test_the_relevance_level_is_normalised_from_either_spelling(
    level: str | None, level_key: str, expected: str
) -> None:
    block = evidence(project(raw(hit(level=level, level_key=level_key))))[0]

    assert block["relevance_level"] == expected


def test_snake_case_wins_when_a_backend_sends_both_spellings() -> None:
    entry = hit(level="MEDIUM")
    entry["relevanceLevel"] = "HIGH"

    assert evidence(project(raw(entry)))[0]["relevance_level"] == "MEDIUM"


def test_a_missing_title_falls_back_to_the_document_id_and_a_missing_section_to_empty() -> None:
    block = evidence(project(raw(hit(title=None, section=None))))[0]

    assert (block["title"], block["section"]) == ("gateway.md", "")


def test_extra_fields_from_other_retrievers_are_ignored() -> None:
    entry = hit()
    entry["metadata"] = {"source": "confluence"}
    document = {"query": "q", "hits": [entry], "took_ms": 4}

    assert evidence(project(json.dumps(document)))[0]["document_id"] == "gateway.md"


@pytest.mark.parametrize(
    "raw_json",
    [
        "",
        "not json",
        "[]",
        "null",
        '"text"',
        '{"query": "q"}',
        '{"hits": []}',
        '{"query": 1, "hits": []}',
        '{"query": "q", "hits": {}}',
        '{"query": "q", "hits": [1]}',
        '{"query": "q", "hits": [{"text": "t"}]}',
        '{"query": "q", "hits": [{"document_id": "", "text": "t"}]}',
        '{"query": "q", "hits": [{"document_id": "d", "text": 3}]}',
        '{"query": "q", "hits": [{"document_id": 7, "text": "t"}]}',
        '{"query": "q", "hits": [{"document_id": "d", "text": "t", "title": 1}]}',
        '{"query": "q", "hits": [{"document_id": "d", "text": "t", "section": []}]}',
        '{"query": "q", "hits": [{"document_id": "d", "text": "t", "chunk_id": 5}]}',
        '{"query": "q", "hits": [{"document_id": "d", "text": "t", "score": "high"}]}',
        '{"query": "q", "hits": [{"document_id": "d", "text": "t", "score": true}]}',
        '{"query": "q", "hits": [{"document_id": "d", "text": "t", "score": NaN}]}',
        '{"query": "q", "hits": [{"document_id": "d", "text": "t", "score": 1e999}]}',
        '{"query": "q", "hits": [{"document_id": "d", "text": "t", "score": 1' + "0" * 400 + "}]}",
        '{"query": "q", "hits": [{"document_id": "d", "text": "t", "relevance_level": 1}]}',
        '{"query": "q", "hits": [{"document_id": "d", "text": "t", "relevanceLevel": ["HIGH"]}]}',
        '{"query": "q", "query": "r", "hits": []}',
        '{"query": "q", "hits": []} trailing',
        '{"query": "q", "hits": []}{}',
        "[" * 100_000,
    ],
)
def test_a_malformed_raw_result_is_a_projection_failure_never_an_exception(raw_json: str) -> None:
    assert project_knowledge(raw_json) == Failure(ProjectionFailure(MALFORMED_RAW))


def test_an_overlong_document_id_fails_the_projection_rather_than_being_cut() -> None:
    result = project_knowledge(raw(hit("d" * 300)), KnowledgeLimits(max_document_id_chars=256))

    assert result == Failure(ProjectionFailure(DOCUMENT_ID_TOO_LONG))


def test_limits_refuse_values_that_leave_no_room() -> None:
    with pytest.raises(ValueError, match="max_blocks"):
        KnowledgeLimits(max_blocks=0)
    with pytest.raises(ValueError, match="max_excerpt_chars"):
        KnowledgeLimits(max_excerpt_chars=1)


# The evidence status recomputed from content (the dual-source check) ---------------------


def test_the_recomputed_status_matches_the_projection() -> None:
    found = project(raw(hit()))
    empty = project(raw())

    assert knowledge_evidence_status(found.agent_result) is EvidenceStatus.EVIDENCE_FOUND
    assert knowledge_evidence_status(empty.agent_result) is EvidenceStatus.NO_EVIDENCE


def test_the_recomputed_status_survives_a_canonical_json_round_trip() -> None:
    agent_result = project(raw(hit(), hit("b.md", "other text", level="MEDIUM"))).agent_result
    reloaded = json.loads(json.dumps(agent_result, sort_keys=True))

    assert knowledge_evidence_status(reloaded) is EvidenceStatus.EVIDENCE_FOUND


def _tampered(change: str) -> JsonObject:
    agent_result = project(raw(hit(), hit("b.md", "other", level="MEDIUM"))).agent_result
    blocks = agent_result["evidence"]
    assert isinstance(blocks, list)
    first = blocks[0]
    assert isinstance(first, dict)
    if change == "evidence emptied":
        agent_result["evidence"] = []
    elif change == "level claimed without evidence":
        agent_result["evidence"] = []
        agent_result["returned_count"] = 0
    elif change == "best level wrong":
        agent_result["relevance_level"] = "MEDIUM"
    elif change == "extra key":
        agent_result["raw"] = "backend body"
    elif change == "missing key":
        del agent_result["truncation"]
    elif change == "block without excerpt":
        del first["excerpt"]
    elif change == "block with a score":
        first["score"] = 1.0
    elif change == "block with an unknown level":
        first["relevance_level"] = "CRITICAL"
    elif change == "block not an object":
        blocks[0] = "text"
    elif change == "count below blocks":
        agent_result["returned_count"] = 1
    elif change == "count not a number":
        agent_result["returned_count"] = True
    elif change == "truncated without reason":
        agent_result["truncated"] = True
    elif change == "unknown reason":
        agent_result["truncation"] = ["SOMETHING"]
        agent_result["truncated"] = True
    elif change == "reason not a string":
        agent_result["truncation"] = [["BLOCK_LIMIT"]]
        agent_result["truncated"] = True
    elif change == "scope without query":
        agent_result["scope"] = {}
    return agent_result


@pytest.mark.parametrize(
    "change",
    [
        "evidence emptied",
        "level claimed without evidence",
        "best level wrong",
        "extra key",
        "missing key",
        "block without excerpt",
        "block with a score",
        "block with an unknown level",
        "block not an object",
        "count below blocks",
        "count not a number",
        "truncated without reason",
        "unknown reason",
        "reason not a string",
        "scope without query",
    ],
)
def test_inconsistent_content_recomputes_to_error(change: str) -> None:
    assert knowledge_evidence_status(_tampered(change)) is EvidenceStatus.ERROR


_levels = st.sampled_from(["HIGH", "MEDIUM", "REFERENCE", "high", "other", None])
_hits = st.lists(
    st.builds(
        hit,
        document_id=st.text(min_size=1, max_size=20).filter(str.strip),
        text=st.text(max_size=300),
        chunk_id=st.one_of(st.none(), st.sampled_from(["c1", "c2", "c3"])),
        level=_levels,
        title=st.one_of(st.none(), st.text(max_size=250)),
        section=st.one_of(st.none(), st.text(max_size=250)),
    ),
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(hits=_hits, query=st.text(max_size=600))
def test_any_raw_result_projects_within_its_bounds_and_recomputes_to_the_same_status(
    hits: list[JsonObject], query: str
) -> None:
    limits = KnowledgeLimits()

    result = project(raw(*hits, query=query), limits)

    blocks = evidence(result)
    assert len(blocks) <= limits.max_blocks
    for block in blocks:
        for key, cap in (
            ("excerpt", limits.max_excerpt_chars),
            ("title", limits.max_title_chars),
            ("section", limits.max_section_chars),
        ):
            value = block[key]
            assert isinstance(value, str)
            assert len(value) <= cap
            assert "\n" not in value
    ranks = [
        ["HIGH", "MEDIUM", "REFERENCE"].index(str(block["relevance_level"])) for block in blocks
    ]
    assert ranks == sorted(ranks)
    assert knowledge_evidence_status(result.agent_result) is result.evidence_status
    assert result.agent_result["truncated"] is result.truncated


def test_lone_surrogates_from_another_retriever_are_dropped_from_the_observation() -> None:
    result = project(raw(hit(text="pool\ud800 exhausted", title="T\udfff"), query="q\ud800"))

    json.dumps(result.agent_result, ensure_ascii=False).encode("utf-8")
    assert evidence(result)[0]["excerpt"] == "pool exhausted"
