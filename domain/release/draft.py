"""The agent's draft answer, as the release point receives it."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, TypeAlias

from attrs import frozen

from factledger.domain.json_shape import JsonRecord
from factledger.domain.status import EvidenceStatus

__all__ = ["Analysis", "AnalysisKind", "Draft", "DraftFormatReason"]

DraftFormatReason: TypeAlias = Literal[
    "TOO_LARGE", "NOT_JSON", "NOT_AN_OBJECT", "DUPLICATE_KEY", "INVALID"
]
"""Why a text is not a draft: over the size limit, not JSON, not a JSON object, a key given
twice, or an object that does not match the draft schema."""


class AnalysisKind(StrEnum):
    """What an analysis claims its citations show."""

    SUPPORTING_EVIDENCE = "SUPPORTING_EVIDENCE"
    """Cites results that found evidence (EVIDENCE_FOUND)."""
    NEGATIVE_OBSERVATION = "NEGATIVE_OBSERVATION"
    """Cites results that found nothing in their scope (NO_EVIDENCE)."""

    @property
    def accepts(self) -> EvidenceStatus:
        """The evidence status a citation of this kind must have."""
        if self is AnalysisKind.SUPPORTING_EVIDENCE:
            return EvidenceStatus.EVIDENCE_FOUND
        return EvidenceStatus.NO_EVIDENCE


@frozen
class Analysis(JsonRecord):
    """One claim and the calls it cites."""

    kind: AnalysisKind
    """Supporting evidence or a scoped negative observation."""
    claim: str
    """What the agent says."""
    tool_call_ids: tuple[str, ...]
    """The calls of this run it cites."""


@frozen
class Draft:
    """A conclusion and its analyses."""

    conclusion: str
    """The answer the agent proposes."""
    analyses: tuple[Analysis, ...]
    """Its claims, each with citations."""

    def same_semantics(self, other: Draft) -> bool:
        """True when only citations differ: same conclusion, claims and kinds, in order."""
        if _norm(self.conclusion) != _norm(other.conclusion):
            return False
        if len(self.analyses) != len(other.analyses):
            return False
        return all(
            a.kind is b.kind and _norm(a.claim) == _norm(b.claim)
            for a, b in zip(self.analyses, other.analyses, strict=True)
        )

    @property
    def cited_ids(self) -> tuple[str, ...]:
        """Every cited tool_call_id, once, in order of first citation."""
        return tuple(dict.fromkeys(i for a in self.analyses for i in a.tool_call_ids))


def _norm(text: str) -> str:
    return " ".join(text.split())
