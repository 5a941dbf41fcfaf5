"""The embedded knowledge backend: runbooks in SQLite FTS5, behind ``KnowledgeBackend``."""

from factledger.adapters.knowledge.fts_backend import (
    IndexStats,
    KnowledgeIndexFailure,
    KnowledgeIndexFailureCode,
    KnowledgeIndexOptions,
    SqliteKnowledgeBackend,
)
from factledger.adapters.knowledge.relevance import RelevanceRule

__all__ = [
    "IndexStats",
    "KnowledgeIndexFailure",
    "KnowledgeIndexFailureCode",
    "KnowledgeIndexOptions",
    "RelevanceRule",
    "SqliteKnowledgeBackend",
]
