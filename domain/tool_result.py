"""What a tool's projector makes of a backend's raw result.

A projector turns the raw JSON text a backend returned into a bounded, redacted
``agent_result`` and the objective evidence status of that result. It never calls a model
and never decides whether the evidence supports a conclusion.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, TypeAlias

from attrs import field, frozen

from factledger.domain.json_types import JsonObject
from factledger.domain.status import EvidenceStatus

__all__ = [
    "BackendFailure",
    "BackendFailureKind",
    "ProjectedEvidenceStatus",
    "ProjectedToolResult",
    "ProjectionFailure",
    "projected_status",
]

ProjectedEvidenceStatus: TypeAlias = Literal[
    EvidenceStatus.EVIDENCE_FOUND, EvidenceStatus.NO_EVIDENCE
]
"""A finished projection holds candidate evidence or none; ERROR is never a projection."""


def projected_status(owner: object, _: object, value: EvidenceStatus) -> None:
    """The attrs validator of a ``ProjectedEvidenceStatus`` field: ERROR is refused."""
    if value not in (EvidenceStatus.EVIDENCE_FOUND, EvidenceStatus.NO_EVIDENCE):
        raise ValueError(f"a {type(owner).__name__} cannot carry evidence status {value!r}")


@frozen
class ProjectedToolResult:
    """The bounded result of one call, as the canonical record keeps it."""

    agent_result: JsonObject
    """The bounded, redacted content; both views (control, model) are derived from it."""
    evidence_status: ProjectedEvidenceStatus = field(validator=projected_status)
    """EVIDENCE_FOUND when the content holds candidate evidence, else NO_EVIDENCE."""
    truncated: bool = False
    """True when the projection cut anything from the raw result."""


class BackendFailureKind(StrEnum):
    """How a backend call failed; each maps to one ToolBoundaryErrorCode of the same name."""

    BACKEND_ERROR = "BACKEND_ERROR"
    BACKEND_TIMEOUT = "BACKEND_TIMEOUT"
    INVALID_REQUEST = "INVALID_REQUEST"


@frozen
class BackendFailure:
    """A backend that failed, ran out of time, or refused the request it was given."""

    kind: BackendFailureKind
    """Which stable error code the call ends with."""
    reason: str | None = None
    """A short, safe reason code the model may see (e.g. ``UNLISTED_COLUMN``), never text
    from an exception, a server or the request."""


@frozen
class ProjectionFailure:
    """A raw result the projector could not turn into a bounded result."""

    reason: str
    """A stable reason code, e.g. ``MALFORMED_RAW``."""
