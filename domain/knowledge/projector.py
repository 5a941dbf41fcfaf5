"""The knowledge projector: raw knowledge result → bounded ``agent_result``.

It keeps at most ``max_blocks`` evidence blocks, each with its stable document identity
(``document_id``, ``title``, ``section``), an excerpt cut on a word boundary and a
``relevance_level``; counts a chunk once (same chunk id, or the same text once flattened and
case-folded); orders blocks HIGH → MEDIUM → REFERENCE, then by the backend's rank; and says
``truncated`` (with the reasons) when anything was cut. Raw scores and chunk ids never reach
the ``agent_result``. Pure: no I/O, no clock.

``agent_result``::

    {"scope": {"query": "card-gateway GW-504 pool exhausted"},
     "evidence": [{"document_id": "card-gateway-timeouts.md",
                   "title": "card-gateway: acquirer timeouts (GW-504)",
                   "section": "Remedy > Pool exhausted", "excerpt": "Raise …",
                   "relevance_level": "HIGH"}],
     "relevance_level": "HIGH", "truncated": false, "truncation": [], "returned_count": 3}

``relevance_level`` at top level is the best level of the blocks, null when there are none.
``truncation`` (reason codes) and ``returned_count`` (hits the backend returned, duplicates
included) are for the control view only. Non-empty evidence ⇒ EVIDENCE_FOUND, even when
every block is REFERENCE; none ⇒ NO_EVIDENCE.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from attrs import field, frozen
from returns.result import Failure, Result, Success

from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.knowledge.number_checks import at_least_one, at_least_two
from factledger.domain.knowledge.raw_format import RawKnowledgeHit, decode_raw_result
from factledger.domain.knowledge.relevance import RelevanceLevel, best_level
from factledger.domain.knowledge.text import clip_words, flatten
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import (
    ProjectedEvidenceStatus,
    ProjectedToolResult,
    ProjectionFailure,
)

__all__ = [
    "CONTROL_KEYS",
    "DOCUMENT_ID_TOO_LONG",
    "EVIDENCE_KEYS",
    "MODEL_KEYS",
    "KnowledgeLimits",
    "TruncationReason",
    "knowledge_evidence_status",
    "project_knowledge",
]

MODEL_KEYS: Final = ("scope", "evidence", "relevance_level", "truncated")
"""Top-level keys of a knowledge ``agent_result`` that the model observation may carry."""
CONTROL_KEYS: Final = ("returned_count", "truncation")
"""Top-level keys of a knowledge ``agent_result`` that only the control view shows."""
EVIDENCE_KEYS: Final = ("document_id", "title", "section", "excerpt", "relevance_level")
"""The keys of one evidence block, in order."""

_RESULT_KEYS: Final = frozenset((*MODEL_KEYS, *CONTROL_KEYS))
_EVIDENCE_KEY_SET: Final = frozenset(EVIDENCE_KEYS)
_LEVEL_BY_VALUE: Final = {level.value: level for level in RelevanceLevel}

DOCUMENT_ID_TOO_LONG: Final = "DOCUMENT_ID_TOO_LONG"
"""The reason code for a hit whose document id exceeds ``max_document_id_chars``: an id is
never cut (a cut id would name another document), so such a result cannot be projected."""


@frozen
class KnowledgeLimits:
    """How much of a knowledge result the model may see."""

    max_blocks: int = field(default=5, validator=at_least_one)
    """Evidence blocks shown; later distinct hits are dropped (``BLOCK_LIMIT``)."""
    max_excerpt_chars: int = field(default=600, validator=at_least_two)
    """Characters of one excerpt, ellipsis included (``EXCERPT_CLIPPED``)."""
    max_title_chars: int = field(default=160, validator=at_least_two)
    """Characters of a title (``IDENTITY_CLIPPED``)."""
    max_section_chars: int = field(default=200, validator=at_least_two)
    """Characters of a section path (``IDENTITY_CLIPPED``)."""
    max_query_chars: int = field(default=500, validator=at_least_two)
    """Characters of the query echoed in ``scope`` (``QUERY_CLIPPED``)."""
    max_document_id_chars: int = field(default=256, validator=at_least_one)
    """Characters of a document id; a longer one fails the projection (never cut)."""


class TruncationReason(StrEnum):
    """Why a knowledge observation is not the whole raw result (stable codes, in this order)."""

    BLOCK_LIMIT = "BLOCK_LIMIT"
    """More distinct hits than ``max_blocks``; the rest were dropped."""
    EXCERPT_CLIPPED = "EXCERPT_CLIPPED"
    """A shown excerpt was cut to its length limit."""
    IDENTITY_CLIPPED = "IDENTITY_CLIPPED"
    """A shown title or section path was cut to its length limit."""
    QUERY_CLIPPED = "QUERY_CLIPPED"
    """The query echoed in ``scope`` was cut to its length limit."""


_REASON_ORDER: Final = tuple(TruncationReason)
"""The reasons in their stable order (iterating the enum itself is several times slower)."""


def project_knowledge(
    raw_json: str, limits: KnowledgeLimits | None = None
) -> Result[ProjectedToolResult, ProjectionFailure]:
    """The bounded result of a raw knowledge result, or why it cannot be projected."""
    limits = limits or KnowledgeLimits()
    decoded = decode_raw_result(raw_json)
    if isinstance(decoded, Failure):
        return Failure(ProjectionFailure(decoded.failure()))
    raw = decoded.unwrap()
    if any(len(hit.document_id) > limits.max_document_id_chars for hit in raw.hits):
        return Failure(ProjectionFailure(DOCUMENT_ID_TOO_LONG))

    reasons: set[TruncationReason] = set()
    # A stable sort on the level alone keeps the backend's rank among equal levels.
    ordered = sorted(raw.hits, key=_level_rank)
    evidence: list[JsonValue] = []
    levels: list[RelevanceLevel] = []
    seen_chunks: set[str] = set()
    seen_texts: set[str] = set()
    for hit in ordered:
        text = flatten(hit.text)
        text_key = text.casefold()
        if text_key in seen_texts or (hit.chunk_id is not None and hit.chunk_id in seen_chunks):
            continue
        seen_texts.add(text_key)
        if hit.chunk_id is not None:
            seen_chunks.add(hit.chunk_id)
        if not text_key:
            continue  # an empty chunk is no evidence
        if len(evidence) == limits.max_blocks:
            reasons.add(TruncationReason.BLOCK_LIMIT)
            break
        evidence.append(_evidence_block(hit, text, limits, reasons))
        levels.append(hit.relevance_level)

    query = _fit(
        flatten(raw.query), limits.max_query_chars, reasons, TruncationReason.QUERY_CLIPPED
    )
    best = best_level(tuple(levels))
    truncated = bool(reasons)
    agent_result: JsonObject = {
        "scope": {"query": query},
        "evidence": evidence,
        "relevance_level": None if best is None else best.value,
        "truncated": truncated,
        "truncation": [reason.value for reason in _REASON_ORDER if reason in reasons],
        "returned_count": len(raw.hits),
    }
    status: ProjectedEvidenceStatus = (
        EvidenceStatus.EVIDENCE_FOUND if evidence else EvidenceStatus.NO_EVIDENCE
    )
    return Success(ProjectedToolResult(agent_result, status, truncated))


def _level_rank(hit: RawKnowledgeHit) -> int:
    return hit.relevance_level.rank


def _evidence_block(
    hit: RawKnowledgeHit, text: str, limits: KnowledgeLimits, reasons: set[TruncationReason]
) -> JsonObject:
    title = _fit(
        flatten(hit.title) or flatten(hit.document_id),
        limits.max_title_chars,
        reasons,
        TruncationReason.IDENTITY_CLIPPED,
    )
    section = _fit(
        flatten(hit.section), limits.max_section_chars, reasons, TruncationReason.IDENTITY_CLIPPED
    )
    excerpt = _fit(text, limits.max_excerpt_chars, reasons, TruncationReason.EXCERPT_CLIPPED)
    return {
        "document_id": hit.document_id,
        "title": title,
        "section": section,
        "excerpt": excerpt,
        "relevance_level": hit.relevance_level.value,
    }


def _fit(
    text: str, max_chars: int, reasons: set[TruncationReason], reason: TruncationReason
) -> str:
    """``text`` clipped to ``max_chars``, noting ``reason`` when it was cut."""
    if len(text) <= max_chars:  # the common case, without building a Clipped
        return text
    clipped = clip_words(text, max_chars)
    reasons.add(reason)
    return clipped.text


def knowledge_evidence_status(agent_result: JsonObject) -> EvidenceStatus:
    """The evidence status a knowledge ``agent_result``'s content implies, recomputed from the
    content alone (the interceptor's dual-source check compares it with the projector's claim).

    Well-formed with evidence blocks ⇒ EVIDENCE_FOUND; well-formed without ⇒ NO_EVIDENCE;
    anything malformed or inconsistent (unexpected keys, a block without its identity, a
    top-level ``relevance_level`` that is not the best of the blocks, a count below the number
    of blocks, ``truncated`` disagreeing with the reasons) ⇒ ERROR, which never equals a
    projection's status and so fails the check.
    """
    if agent_result.keys() != _RESULT_KEYS:
        return EvidenceStatus.ERROR
    scope = agent_result["scope"]
    evidence = agent_result["evidence"]
    returned = agent_result["returned_count"]
    truncation = agent_result["truncation"]
    if (
        not isinstance(scope, dict)
        or not isinstance(scope.get("query"), str)
        or not isinstance(evidence, list)
        or not isinstance(agent_result["truncated"], bool)
        or not isinstance(truncation, list)
        or not all(_is_reason(reason) for reason in truncation)
        or agent_result["truncated"] is not bool(truncation)
        or not isinstance(returned, int)
        or isinstance(returned, bool)
        or returned < len(evidence)
    ):
        return EvidenceStatus.ERROR
    levels: list[RelevanceLevel] = []
    for block in evidence:
        level = _block_level(block)
        if level is None:
            return EvidenceStatus.ERROR
        levels.append(level)
    best = best_level(tuple(levels))
    if agent_result["relevance_level"] != (None if best is None else best.value):
        return EvidenceStatus.ERROR
    return EvidenceStatus.EVIDENCE_FOUND if evidence else EvidenceStatus.NO_EVIDENCE


def _is_reason(value: JsonValue) -> bool:
    return isinstance(value, str) and value in TruncationReason.__members__


def _block_level(block: JsonValue) -> RelevanceLevel | None:
    if not isinstance(block, dict) or block.keys() != _EVIDENCE_KEY_SET:
        return None
    for key in EVIDENCE_KEYS:
        if not isinstance(block[key], str):
            return None
    if not block["document_id"] or not block["excerpt"]:
        return None
    level = block["relevance_level"]
    return _LEVEL_BY_VALUE.get(level) if isinstance(level, str) else None
