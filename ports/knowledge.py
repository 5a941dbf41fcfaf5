"""What the knowledge tool needs from a retriever: search, within a time limit, as raw JSON.

The embedded default is SQLite FTS5 over a folder of runbooks
(``factledger.adapters.knowledge``); any retriever that writes the same raw format can
replace it. The raw text stays with the harness; the projector
(``factledger.domain.knowledge.project_knowledge``) makes the bounded observation from it.

Raw format (UTF-8 JSON, one object; ``factledger.domain.knowledge.raw_format`` reads and
writes it)::

    {"query": str,
     "hits": [{"document_id": str, "title": str, "section": str, "chunk_id": str,
               "text": str, "score": float,
               "relevance_level": "HIGH" | "MEDIUM" | "REFERENCE"}]}

``hits`` are best first (the list order is the rank). ``document_id`` is stable across
restarts; ``section`` is the heading path inside the document ("" before the first heading);
``score`` is higher for better hits and never reaches the model. Other retrievers may send
``relevanceLevel`` instead of ``relevance_level``; unknown or missing levels read as
REFERENCE. A query without any usable term is a normal, empty result (``"hits": []``).
"""

from __future__ import annotations

from typing import Protocol

from returns.result import Result

from factledger.domain.tool_result import BackendFailure

__all__ = ["KnowledgeBackend"]


class KnowledgeBackend(Protocol):
    """Searches a body of knowledge; bounds its own time."""

    def search(self, query: str, limit: int, timeout_seconds: float) -> Result[str, BackendFailure]:
        """At most ``limit`` hits for the free-text ``query`` as raw JSON text, or why there
        are none: BACKEND_TIMEOUT when ``timeout_seconds`` ran out, BACKEND_ERROR otherwise —
        never an exception, never exception text. ``query`` is the model's text: the backend
        treats it as words to look for, never as syntax of its query language."""
        ...
