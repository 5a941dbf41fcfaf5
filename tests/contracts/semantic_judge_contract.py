"""One contract suite for the SemanticJudge port.

Each adapter subclasses ``SemanticJudgeContract`` and provides ``make_judge``: a factory that
takes the verdict the contract expects for a request (``"SUPPORTED"`` or the indexes it expects
to be found unsupported) and returns a judge. A deterministic judge ignores the hint and must
reach the verdict on its own; a model-backed judge gets its model scripted with it, so the
suite checks what the adapter does with an answer (indexes, usage, the shape of findings). A
judge that can be made unreachable also provides ``unreachable_judge``.

The requests are built from the shapes the evidence tools really return: a SQL result with its
executed query in the scope, and log patterns with the searched terms.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Literal, TypeAlias

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.release.judge import ClaimEvidence
from factledger.ports.semantic_judge import (
    JudgeAnswer,
    JudgeRequest,
    JudgeSupported,
    JudgeUnavailable,
    JudgeUnsupported,
    SemanticJudge,
)

Expected: TypeAlias = Literal["SUPPORTED"] | tuple[int, ...]
JudgeFactory: TypeAlias = Callable[[Expected], SemanticJudge]

SQL_RESULT: JsonObject = {
    "columns": ["status", "orders"],
    "rows": [["failed", 46]],
    "row_count": 1,
    "truncated": False,
}
SQL_SCOPE: JsonObject = {
    "datasource": "payments",
    "tables": ["orders"],
    "columns": ["status", "created_at"],
    "sql": "SELECT status, COUNT(*) AS orders FROM orders WHERE status = 'failed' "
    "AND created_at >= '2026-11-28 14:32:00' GROUP BY status",
    "dialect": "sqlite",
}
LOG_RESULT: JsonObject = {
    "matched_count": 312,
    "patterns": [
        {
            "template": "GW-504 acquirer pool exhausted after <*> ms",
            "count": 312,
            "level": "ERROR",
            "first_seen": "2026-11-28T14:32:05Z",
            "last_seen": "2026-11-28T14:58:41Z",
        }
    ],
}
LOG_SCOPE: JsonObject = {
    "service": "card-gateway",
    "terms": ["GW-504"],
    "start": "2026-11-28T14:00:00Z",
    "end": "2026-11-28T15:00:00Z",
    "skipped": [],
}

SUPPORTED_CLAIMS = (
    ClaimEvidence(
        AnalysisKind.SUPPORTING_EVIDENCE,
        "46 orders have status failed since 2026-11-28 14:32.",
        (SQL_RESULT,),
        (SQL_SCOPE,),
    ),
    ClaimEvidence(
        AnalysisKind.SUPPORTING_EVIDENCE,
        "card-gateway logged GW-504 acquirer pool exhausted 312 times.",
        (LOG_RESULT,),
        (LOG_SCOPE,),
    ),
)
CONCLUSION = "The card-gateway acquirer pool is exhausted (GW-504) and orders are failing."


def _request(*claims: ClaimEvidence) -> JudgeRequest:
    return JudgeRequest(CONCLUSION, claims)


class SemanticJudgeContract:
    """Every adapter of the semantic judge port must pass these."""

    @pytest.fixture
    def make_judge(self) -> JudgeFactory:
        raise NotImplementedError

    def _judged(
        self, make_judge: JudgeFactory, expected: Expected, request: JudgeRequest
    ) -> JudgeAnswer:
        began = time.monotonic()
        answer = make_judge(expected).judge(request, 5.0)
        assert time.monotonic() - began < 6.0, "a judge answers within its timeout"
        return answer

    def test_claims_their_evidence_supports_are_supported(self, make_judge: JudgeFactory) -> None:
        answer = self._judged(make_judge, "SUPPORTED", _request(*SUPPORTED_CLAIMS))
        assert isinstance(answer, JudgeSupported), answer

    def test_a_number_the_evidence_does_not_hold_is_unsupported_at_its_analysis(
        self, make_judge: JudgeFactory
    ) -> None:
        wrong = ClaimEvidence(
            AnalysisKind.SUPPORTING_EVIDENCE,
            "97 orders have status failed since 2026-11-28 14:32.",
            (SQL_RESULT,),
            (SQL_SCOPE,),
        )
        answer = self._judged(make_judge, (1,), _request(SUPPORTED_CLAIMS[1], wrong))
        assert isinstance(answer, JudgeUnsupported), answer
        assert 1 in {finding.analysis_index for finding in answer.findings}
        assert 0 not in {finding.analysis_index for finding in answer.findings}

    def test_findings_name_real_analyses_with_stable_codes(self, make_judge: JudgeFactory) -> None:
        wrong = ClaimEvidence(
            AnalysisKind.SUPPORTING_EVIDENCE,
            "The billing-api service logged DB-911 deadlocks 5,000 times.",
            (LOG_RESULT,),
            (LOG_SCOPE,),
        )
        request = _request(SUPPORTED_CLAIMS[0], wrong)
        answer = self._judged(make_judge, (1,), request)
        assert isinstance(answer, JudgeUnsupported), answer
        assert answer.findings, "an unsupported answer says what is unsupported"
        for finding in answer.findings:
            assert -1 <= finding.analysis_index < len(request.claims)
            assert re.fullmatch(r"[A-Z][A-Z0-9_]*", finding.reason), finding.reason

    def test_a_quoted_token_comes_from_the_claim_never_from_the_evidence(
        self, make_judge: JudgeFactory
    ) -> None:
        wrong = ClaimEvidence(
            AnalysisKind.SUPPORTING_EVIDENCE,
            "Exactly 4711 orders failed.",
            (SQL_RESULT,),
            (SQL_SCOPE,),
        )
        request = _request(wrong)
        answer = self._judged(make_judge, (0,), request)
        assert isinstance(answer, JudgeUnsupported), answer
        for finding in answer.findings:
            said = request.conclusion if finding.analysis_index == -1 else wrong.claim
            if finding.token is not None:
                assert finding.token in said, finding

    def test_usage_is_reported_exactly_when_a_model_was_called(
        self, make_judge: JudgeFactory
    ) -> None:
        judge = make_judge("SUPPORTED")
        answer = judge.judge(_request(*SUPPORTED_CLAIMS), 5.0)
        assert isinstance(answer, JudgeSupported), answer
        if judge.uses_model:
            assert answer.usage is not None
            assert all(tokens >= 1 for tokens in answer.usage)
        else:
            assert answer.usage is None

    def test_a_judge_has_a_stable_name(self, make_judge: JudgeFactory) -> None:
        judge = make_judge("SUPPORTED")
        assert re.fullmatch(r"[a-z][a-z0-9_-]*", judge.name)
        assert isinstance(judge.uses_model, bool)


class UnreachableJudgeContract:
    """For judges behind a network: an outage is a value, in time."""

    @pytest.fixture
    def unreachable_judge(self) -> SemanticJudge:
        raise NotImplementedError

    def test_an_unreachable_judge_is_unavailable_within_its_timeout(
        self, unreachable_judge: SemanticJudge
    ) -> None:
        began = time.monotonic()
        answer = unreachable_judge.judge(_request(*SUPPORTED_CLAIMS), 1.0)
        assert isinstance(answer, JudgeUnavailable), answer
        assert re.fullmatch(r"[A-Z][A-Z0-9_]*", answer.reason), answer.reason
        assert time.monotonic() - began < 3.0
