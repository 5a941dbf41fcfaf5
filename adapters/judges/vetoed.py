"""A model judge under the deterministic judge's veto (defence in depth).

The grounding judge reads every claim first; its refusal stands and the model is not asked.
Only a draft the grounding judge supports goes to the model, whose SUPPORTED, UNSUPPORTED or
unavailable answer is then the verdict. A model can therefore refuse more, never publish what
the deterministic checks refuse.
"""

from __future__ import annotations

from factledger.adapters.judges.grounding import GroundingJudge
from factledger.ports.semantic_judge import (
    JudgeAnswer,
    JudgeRequest,
    JudgeUnsupported,
    SemanticJudge,
)

__all__ = ["VetoedJudge"]


class VetoedJudge:
    """``model`` asked only when ``rules`` (the grounding judge) support the draft."""

    uses_model = True

    def __init__(self, model: SemanticJudge, rules: GroundingJudge | None = None) -> None:
        self._model = model
        self._rules = rules or GroundingJudge()

    @property
    def name(self) -> str:
        """The model judge's name (``llm``): it gives the verdicts the rules let through."""
        return self._model.name

    def judge(self, request: JudgeRequest, timeout_seconds: float) -> JudgeAnswer:
        vetoed = self._rules.judge(request, timeout_seconds)
        if isinstance(vetoed, JudgeUnsupported):
            return vetoed
        return self._model.judge(request, timeout_seconds)
