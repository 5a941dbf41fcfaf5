"""With a model judge, the deterministic checks stay a veto: the model's SUPPORTED never
publishes what the grounding judge refuses, and the model is not asked then."""

from __future__ import annotations

from factledger.adapters.bootstrap import build_judge
from factledger.adapters.config.settings import Settings
from factledger.adapters.judges.vetoed import VetoedJudge
from factledger.domain.release.judge import ClaimEvidence
from factledger.ports.semantic_judge import (
    JudgeAnswer,
    JudgeFinding,
    JudgeRequest,
    JudgeSupported,
    JudgeUnsupported,
)
from tests.unit.release.judge.incidents import FAILED_ORDERS, SUPPORT


class AlwaysSupports:
    """A model judge that supports everything and counts its calls."""

    name = "llm"
    uses_model = True

    def __init__(self) -> None:
        self.calls = 0

    def judge(self, request: JudgeRequest, timeout_seconds: float) -> JudgeAnswer:
        self.calls += 1
        return JudgeSupported()


def _request(claim: str) -> JudgeRequest:
    evidence = ClaimEvidence(SUPPORT, claim, (FAILED_ORDERS,), (FAILED_ORDERS["scope"],))
    return JudgeRequest("Orders failed since 14:32.", (evidence,))


def test_a_deterministic_refusal_overrules_the_model() -> None:
    model = AlwaysSupports()
    answer = VetoedJudge(model).judge(_request("It is not true that 46 orders failed."), 5.0)
    assert isinstance(answer, JudgeUnsupported)
    assert answer.findings == (JudgeFinding(0, "POLARITY_MISMATCH", "orders"),)
    assert model.calls == 0


def test_a_draft_the_rules_support_goes_to_the_model() -> None:
    model = AlwaysSupports()
    answer = VetoedJudge(model).judge(_request("Since 14:32 UTC, 46 orders failed."), 5.0)
    assert isinstance(answer, JudgeSupported)
    assert model.calls == 1


def test_the_llm_setting_builds_the_vetoed_judge() -> None:
    settings = Settings.model_validate(
        {"judge": {"kind": "llm"}, "model": {"base_url": "http://127.0.0.1:9", "name": "m"}}
    )
    closers: list[object] = []
    judge = build_judge(settings, closers)  # type: ignore[arg-type]
    assert isinstance(judge, VetoedJudge)
    assert (judge.name, judge.uses_model) == ("llm", True)
