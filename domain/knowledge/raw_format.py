"""The raw result a knowledge backend returns: one JSON object, written and read here.

Shape (UTF-8 JSON)::

    {
      "query": str,                  # the query as the backend received it
      "hits": [                      # best first: the list order is the backend's rank
        {"document_id": str,         # stable identity of the document (e.g. its relative path)
         "title": str,               # the document's title
         "section": str,             # the heading path inside the document ("A > B"), or ""
         "chunk_id": str,            # identity of this piece of text inside the index
         "text": str,                # the chunk's text, whole
         "score": float,             # the backend's score, higher is better (harness only)
         "relevance_level": "HIGH" | "MEDIUM" | "REFERENCE"}
      ]
    }

A reader is lenient where other retrievers differ and strict about types: extra keys are
ignored; ``relevanceLevel`` is accepted in place of ``relevance_level`` (``relevance_level``
wins when both are given), compared case-insensitively, and any unknown or missing level
reads as REFERENCE; ``title`` may be missing or null (the document id stands in), as may
``section`` (""), ``chunk_id`` and ``score``. A value of the wrong type, a duplicate key, a
non-finite number or text that is not one JSON object is ``MALFORMED_RAW``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Final

from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.domain.json_reading import ShapeMismatch, read_strict
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.knowledge.relevance import RelevanceLevel, normalise_relevance

__all__ = [
    "MALFORMED_RAW",
    "RawKnowledgeHit",
    "RawKnowledgeResult",
    "decode_raw_result",
    "encode_raw_result",
]

MALFORMED_RAW: Final = "MALFORMED_RAW"
"""The reason code for raw text that is not a knowledge result."""


@frozen
class RawKnowledgeHit:
    """One retrieved chunk, as the backend described it (raw: it stays with the harness)."""

    document_id: str
    """Stable identity of the document."""
    title: str
    """The document's title."""
    section: str
    """The heading path of the chunk inside the document, or "" before the first heading."""
    chunk_id: str | None
    """Identity of the chunk inside the index, when the backend gives one."""
    text: str
    """The chunk's text, whole."""
    score: float | None
    """The backend's score (higher is better), when it gives one; never shown to the model."""
    relevance_level: RelevanceLevel
    """The level the backend gave, normalised (unknown or missing ⇒ REFERENCE)."""


@frozen
class RawKnowledgeResult:
    """A whole raw knowledge result."""

    query: str
    """The query the backend ran."""
    hits: tuple[RawKnowledgeHit, ...]
    """The hits, best first."""


def encode_raw_result(query: str, hits: Sequence[RawKnowledgeHit]) -> str:
    """The raw JSON text for ``hits`` found for ``query`` (compact, keys in a fixed order)."""
    document: JsonObject = {
        "query": query,
        "hits": [_encode_hit(hit) for hit in hits],
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _encode_hit(hit: RawKnowledgeHit) -> JsonValue:
    return {
        "document_id": hit.document_id,
        "title": hit.title,
        "section": hit.section,
        "chunk_id": hit.chunk_id,
        "text": hit.text,
        "score": hit.score,
        "relevance_level": hit.relevance_level.value,
    }


def decode_raw_result(raw_json: str) -> Result[RawKnowledgeResult, str]:
    """The decoded result, or ``MALFORMED_RAW``."""
    result = read_strict(raw_json, _result)
    return Failure(MALFORMED_RAW) if result is None else Success(result)


def _result(document: object) -> RawKnowledgeResult:
    if not isinstance(document, dict):
        raise ShapeMismatch
    query = document.get("query")
    hits = document.get("hits")
    if not isinstance(query, str) or not isinstance(hits, list):
        raise ShapeMismatch
    return RawKnowledgeResult(query, tuple(_hit(hit) for hit in hits))


def _hit(hit: object) -> RawKnowledgeHit:
    if not isinstance(hit, dict):
        raise ShapeMismatch
    document_id = hit.get("document_id")
    text = hit.get("text")
    if not isinstance(document_id, str) or not document_id.strip() or not isinstance(text, str):
        raise ShapeMismatch
    title = _optional_text(hit.get("title"))
    section = _optional_text(hit.get("section"))
    chunk_id = _optional_text(hit.get("chunk_id"))
    level = hit.get("relevance_level")
    if level is None:
        level = hit.get("relevanceLevel")
    if level is not None and not isinstance(level, str):
        raise ShapeMismatch
    return RawKnowledgeHit(  # positional: one of these per hit of every call
        document_id,
        document_id if title is None else title,
        "" if section is None else section,
        chunk_id,
        text,
        _optional_score(hit.get("score")),
        normalise_relevance(level),
    )


def _optional_text(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise ShapeMismatch


def _optional_score(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ShapeMismatch
    try:
        score = float(value)
    except OverflowError:  # an integer literal too large for a float
        raise ShapeMismatch from None
    if not math.isfinite(score):
        raise ShapeMismatch
    return score
