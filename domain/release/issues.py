"""Validation issues a release can list."""

from __future__ import annotations

from enum import StrEnum

from attrs import frozen

from factledger.domain.json_shape import record_json
from factledger.domain.json_types import JsonObject

__all__ = ["IssueCode", "ValidationIssue"]


class IssueCode(StrEnum):
    """Why a draft's evidence did not hold."""

    MISSING_CITATION = "MISSING_CITATION"
    UNKNOWN_TOOL_CALL = "UNKNOWN_TOOL_CALL"
    NOT_READY = "NOT_READY"
    EVIDENCE_KIND_MISMATCH = "EVIDENCE_KIND_MISMATCH"
    EVIDENCE_EXPIRED = "EVIDENCE_EXPIRED"
    PROJECTION_INCONSISTENT = "PROJECTION_INCONSISTENT"
    STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
    MALFORMED_DRAFT = "MALFORMED_DRAFT"
    UNGROUNDED_CLAIM = "UNGROUNDED_CLAIM"
    """The semantic judge found a claim its citations do not support."""


@frozen
class ValidationIssue:
    """One issue, located at a citation and/or an analysis when it has a place."""

    code: IssueCode
    """What is wrong."""
    tool_call_id: str | None = None
    """The citation concerned."""
    analysis_index: int | None = None
    """The analysis concerned (0-based)."""

    def to_json(self) -> JsonObject:
        """``{"code", "tool_call_id", "analysis_index"}``."""
        return record_json(self)
