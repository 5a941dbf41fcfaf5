"""Values that describe verified evidence: sources and observed facts."""

from __future__ import annotations

from attrs import frozen

from factledger.domain.codec import canonical_json
from factledger.domain.json_shape import JsonRecord
from factledger.domain.json_types import JsonObject
from factledger.domain.status import EvidenceStatus

__all__ = ["ObservedFact", "Source"]


@frozen
class Source(JsonRecord):
    """Where verified evidence came from; deduplicated by type, source and scope."""

    source_type: str
    """The kind of source (the tool name: ``lookup_knowledge``, ``query_logs``, ``query_sql``)."""
    source: str
    """The document, service or datasource."""
    scope: JsonObject
    """The checked scope (query, window, tables)."""

    @property
    def identity(self) -> tuple[str, str, str]:
        """What two sources must share to be the same source."""
        return (self.source_type, self.source, canonical_json(self.scope).decode())


@frozen
class ObservedFact(JsonRecord):
    """One bounded, verified statement of what a call observed."""

    tool_call_id: str
    """The call."""
    tool_name: str
    """Its tool."""
    evidence_status: EvidenceStatus
    """EVIDENCE_FOUND, or NO_EVIDENCE for a scoped negative fact."""
    summary: str
    """At most 320 characters, built from the canonical result (never the model's words)."""
