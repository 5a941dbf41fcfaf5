"""The embedded grounding judge passes the semantic judge contract."""

from __future__ import annotations

import pytest

from factledger.adapters.judges.grounding import GroundingJudge
from tests.contracts.semantic_judge_contract import Expected, JudgeFactory, SemanticJudgeContract


class TestGroundingJudge(SemanticJudgeContract):
    @pytest.fixture
    def make_judge(self) -> JudgeFactory:
        def build(_: Expected) -> GroundingJudge:
            return GroundingJudge()

        return build
