"""The draft contract (strict): what an agent hands to the release point.

``{"conclusion": str, "analyses": [{"kind": "SUPPORTING_EVIDENCE" | "NEGATIVE_OBSERVATION",
"claim": str, "tool_call_ids": [str, ...]}]}``. An analysis may list no id: that is the
EvidenceGuard's MISSING_CITATION, not a malformed draft. A malformed draft is a value.
"""

from __future__ import annotations

from typing import Literal

from attrs import frozen
from pydantic import Field, ValidationError

from factledger.application.contracts.envelope import StrictModel
from factledger.domain.release.draft import Analysis, AnalysisKind, Draft, DraftFormatReason
from factledger.domain.strict_json import object_fault

__all__ = ["AnalysisModel", "DraftModel", "MalformedDraft", "parse_draft"]

MAX_DRAFT_BYTES = 256 * 1024


class AnalysisModel(StrictModel):
    """One claim and its citations."""

    kind: Literal["SUPPORTING_EVIDENCE", "NEGATIVE_OBSERVATION"] = Field(
        description="SUPPORTING_EVIDENCE cites results that found evidence; "
        "NEGATIVE_OBSERVATION cites results that found nothing in their scope."
    )
    claim: str = Field(min_length=1, max_length=2000, description="What the analysis states.")
    tool_call_ids: list[str] = Field(
        max_length=20, description="The tool_call_ids of this run that support the claim."
    )


class DraftModel(StrictModel):
    """A conclusion and its analyses."""

    conclusion: str = Field(min_length=1, max_length=4000, description="The proposed answer.")
    analyses: list[AnalysisModel] = Field(max_length=20, description="Claims with citations.")


@frozen
class MalformedDraft:
    """Text that is not a draft (validation issue MALFORMED_DRAFT)."""

    reason: DraftFormatReason
    """Why the text is not a draft."""


def parse_draft(text: str) -> Draft | MalformedDraft:
    """The draft, or why the text is not one (never an exception)."""
    if len(text.encode("utf-8", errors="replace")) > MAX_DRAFT_BYTES:
        return MalformedDraft("TOO_LARGE")
    fault = object_fault(text)
    if fault is not None:
        return MalformedDraft(fault)
    try:
        model = DraftModel.model_validate_json(text, strict=True)
    except ValidationError:
        return MalformedDraft("INVALID")
    return Draft(
        conclusion=model.conclusion,
        analyses=tuple(
            Analysis(AnalysisKind(item.kind), item.claim, tuple(item.tool_call_ids))
            for item in model.analyses
        ),
    )
