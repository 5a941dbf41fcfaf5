"""The knowledge tool's pure logic: the raw result format, relevance levels and the projector
that turns a retriever's raw result into the bounded observation the model sees."""

from factledger.domain.knowledge.projector import (
    CONTROL_KEYS,
    MODEL_KEYS,
    KnowledgeLimits,
    TruncationReason,
    knowledge_evidence_status,
    project_knowledge,
)
from factledger.domain.knowledge.relevance import RelevanceLevel

__all__ = [
    "CONTROL_KEYS",
    "MODEL_KEYS",
    "KnowledgeLimits",
    "RelevanceLevel",
    "TruncationReason",
    "knowledge_evidence_status",
    "project_knowledge",
]
