"""``lookup_knowledge``: runbook search through the boundary."""

from __future__ import annotations

from pydantic import BaseModel
from returns.result import Result

from factledger.application.contracts.envelope import KnowledgeEnvelope, KnowledgeInput
from factledger.application.tool_api.tool import EvidenceTool, normalize_text
from factledger.domain.evidence import Source
from factledger.domain.json_types import JsonObject
from factledger.domain.knowledge.projector import (
    KnowledgeLimits,
    knowledge_evidence_status,
    project_knowledge,
)
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, ProjectedToolResult, ProjectionFailure
from factledger.ports.knowledge import KnowledgeBackend

__all__ = ["KnowledgeTool"]

DESCRIPTION = (
    "Look up the team's runbooks and known-issue notes. Returns bounded excerpts with their "
    "document, section and relevance_level (HIGH, MEDIUM, or REFERENCE: related, for "
    "reference only). Cite a result's tool_call_id to support a claim."
)


class KnowledgeTool(EvidenceTool[KnowledgeInput]):
    """Runbook lookup over any ``KnowledgeBackend``."""

    name = "lookup_knowledge"
    input_model = KnowledgeInput
    description = DESCRIPTION
    self_bounded = True
    content_keys = ("evidence",)
    has_relevance = True

    def __init__(
        self, backend: KnowledgeBackend, limits: KnowledgeLimits | None = None, hits: int = 8
    ) -> None:
        self._backend = backend
        self._limits = limits or KnowledgeLimits()
        self._hits = hits

    def envelope_model(self) -> type[BaseModel]:
        return KnowledgeEnvelope

    def scope(self, request: KnowledgeInput) -> JsonObject:
        return {"query": request.query}

    def normalized_scope(self, request: KnowledgeInput) -> JsonObject:
        return {"query": normalize_text(request.query)}

    def run(
        self, request: KnowledgeInput, timeout_seconds: float, /
    ) -> Result[str, BackendFailure]:
        return self._backend.search(request.query, self._hits, timeout_seconds)

    def project(
        self, request: KnowledgeInput, raw_json: str, /
    ) -> Result[ProjectedToolResult, ProjectionFailure]:
        return project_knowledge(raw_json, self._limits)

    def evidence_status(self, agent_result: JsonObject) -> EvidenceStatus | None:
        try:
            return knowledge_evidence_status(agent_result)
        except (KeyError, TypeError, ValueError):
            return None

    def summarize(self, agent_result: JsonObject, evidence_status: EvidenceStatus) -> str:
        scope = agent_result.get("scope")
        query = scope.get("query") if isinstance(scope, dict) else None
        evidence = agent_result.get("evidence")
        blocks = (
            [block for block in evidence if isinstance(block, dict)]
            if isinstance(evidence, list)
            else []
        )
        if evidence_status is not EvidenceStatus.EVIDENCE_FOUND or not blocks:
            return f"No runbook matched {query!r}."
        top = blocks[0]
        more = f" (+{len(blocks) - 1} more)" if len(blocks) > 1 else ""
        return (
            f"Runbook {top.get('title')!r}, section {top.get('section')!r} "
            f"[{top.get('relevance_level')}]{more}: {top.get('excerpt')}"
        )

    def sources(self, agent_result: JsonObject) -> tuple[Source, ...]:
        evidence = agent_result.get("evidence")
        if not isinstance(evidence, list):
            return ()
        found: list[Source] = []
        for block in evidence:
            if isinstance(block, dict) and isinstance(block.get("document_id"), str):
                section = block.get("section")
                found.append(
                    Source(
                        "lookup_knowledge",
                        str(block["document_id"]),
                        {"section": section if isinstance(section, str) else ""},
                    )
                )
        return tuple(found)
