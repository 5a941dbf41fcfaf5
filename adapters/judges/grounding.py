"""The embedded grounding judge (used when no model is configured)."""

from __future__ import annotations

from factledger.domain.release.grounding import GroundingPolicy, ground
from factledger.ports.semantic_judge import (
    JudgeAnswer,
    JudgeFinding,
    JudgeRequest,
    JudgeSupported,
    JudgeUnsupported,
)

__all__ = ["GroundingJudge"]


class GroundingJudge:
    """Deterministic: numbers, identifiers and key terms must be in the cited evidence."""

    name = "grounding"
    uses_model = False

    def __init__(self, policy: GroundingPolicy | None = None) -> None:
        self._policy = policy or GroundingPolicy()

    def judge(self, request: JudgeRequest, timeout_seconds: float) -> JudgeAnswer:
        report = ground(request.conclusion, request.claims, self._policy)
        if report.supported:
            return JudgeSupported()
        findings = [
            JudgeFinding(index, reason.value)
            for index, reason in enumerate(report.analyses)
            if reason is not None
        ]
        if report.conclusion is not None:
            findings.append(JudgeFinding(-1, report.conclusion.value))
        return JudgeUnsupported(tuple(findings))
