"""The deterministic grounding judge: claims parsed into times, numbers, identifiers and
words, each cited call read into its facts, and one module per rule family."""

from factledger.domain.release.judge.evidence import ClaimEvidence
from factledger.domain.release.judge.judge import GroundingPolicy, GroundingReport, ground
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = [
    "ClaimEvidence",
    "Finding",
    "GroundingPolicy",
    "GroundingReason",
    "GroundingReport",
    "ground",
]
