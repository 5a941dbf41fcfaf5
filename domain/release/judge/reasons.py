"""Why the grounding judge refuses a claim: one reason code and the words of the claim."""

from __future__ import annotations

from enum import StrEnum

from attrs import frozen

__all__ = ["Finding", "GroundingReason"]


class GroundingReason(StrEnum):
    """Why a claim is not grounded in the evidence it cites."""

    NO_EVIDENCE_CITED = "NO_EVIDENCE_CITED"
    UNGROUNDED_NUMBER = "UNGROUNDED_NUMBER"
    """A number that is neither in the cited call nor computed from its numbers."""
    UNIT_MISMATCH = "UNIT_MISMATCH"
    """The number is there, in another unit or magnitude."""
    TIME_MISMATCH = "TIME_MISMATCH"
    """A time no instant of the cited call matches."""
    UNGROUNDED_ENTITY = "UNGROUNDED_ENTITY"
    """A service, table, error code, setting or pattern the cited call does not hold."""
    RECORD_MISMATCH = "RECORD_MISMATCH"
    """Values one statement names together that no single row or pattern of the call holds."""
    FILTER_MISMATCH = "FILTER_MISMATCH"
    """The claim counts something else than the cited query filtered or the row it names."""
    POLARITY_MISMATCH = "POLARITY_MISMATCH"
    """Negated where the evidence is positive, or the reverse."""
    QUANTIFIER_UNSUPPORTED = "QUANTIFIER_UNSUPPORTED"
    """All, every, only, both, some, most without evidence that says so."""
    CAUSAL_UNSUPPORTED = "CAUSAL_UNSUPPORTED"
    """Because, caused, due to, led to without evidence that says why."""
    UNGROUNDED_TERMS = "UNGROUNDED_TERMS"
    """A decisive word, or too many of the claim's words, not in the cited call."""
    NEGATIVE_BROADER_THAN_SCOPE = "NEGATIVE_BROADER_THAN_SCOPE"
    """A negative observation that says more than the cited search covered."""
    NEGATIVE_INCOMPLETE_SCOPE = "NEGATIVE_INCOMPLETE_SCOPE"
    """A negative observation over a search that did not read all of its scope."""


@frozen
class Finding:
    """One refusal."""

    reason: GroundingReason
    token: str | None = None
    """The offending words, as the claim writes them."""
