"""The embedded grounding judge (used when no model is configured, and as the veto of a
model judge)."""

from __future__ import annotations

from factledger.domain.release.judge import GroundingPolicy, ground
from factledger.ports.semantic_judge import (
    JudgeAnswer,
    JudgeFinding,
    JudgeRequest,
    JudgeSupported,
    JudgeUnsupported,
)

__all__ = ["GroundingJudge"]


class GroundingJudge:
    """Deterministic: reads each claim's structure against the calls it cites."""

    name = "grounding"
    uses_model = False

    def __init__(self, policy: GroundingPolicy | None = None) -> None:
        self._policy = policy or GroundingPolicy()

    def judge(self, request: JudgeRequest, timeout_seconds: float) -> JudgeAnswer:
        report = ground(request.conclusion, request.claims, self._policy)
        if report.supported:
            return JudgeSupported()
        findings = [
            JudgeFinding(index, found.reason.value, found.token)
            for index, found in enumerate(report.analyses)
            if found is not None
        ]
        if report.conclusion is not None:
            findings.append(
                JudgeFinding(-1, report.conclusion.reason.value, report.conclusion.token)
            )
        return JudgeUnsupported(tuple(findings))
