"""The embedded grounding judge passes the semantic judge contract."""

from __future__ import annotations

import pytest

from factledger.adapters.judges.grounding import GroundingJudge
from tests.contracts.semantic_judge_contract import Expected, JudgeFactory, SemanticJudgeContract

# The bag-of-words judge misses the date of a SQL predicate and a service named in the logs
# scope (issue 12, seen item 2); strict, so the marks go once the structured judge lands.
_READS_NO_SCOPE = pytest.mark.xfail(strict=True, reason="the judge does not read scopes yet")


class TestGroundingJudge(SemanticJudgeContract):
    @pytest.fixture
    def make_judge(self) -> JudgeFactory:
        def build(_: Expected) -> GroundingJudge:
            return GroundingJudge()

        return build

    @_READS_NO_SCOPE
    def test_claims_their_evidence_supports_are_supported(self, make_judge: JudgeFactory) -> None:
        super().test_claims_their_evidence_supports_are_supported(make_judge)

    @_READS_NO_SCOPE
    def test_a_number_the_evidence_does_not_hold_is_unsupported_at_its_analysis(
        self, make_judge: JudgeFactory
    ) -> None:
        super().test_a_number_the_evidence_does_not_hold_is_unsupported_at_its_analysis(make_judge)

    @_READS_NO_SCOPE
    def test_usage_is_reported_exactly_when_a_model_was_called(
        self, make_judge: JudgeFactory
    ) -> None:
        super().test_usage_is_reported_exactly_when_a_model_was_called(make_judge)
