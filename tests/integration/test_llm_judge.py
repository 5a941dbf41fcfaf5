"""The LLM judge against a real local HTTP server speaking Chat Completions."""

from __future__ import annotations

import json
import time

import pytest

from factledger.adapters.judges.llm import LlmJudge
from factledger.adapters.models.chat_http import ChatClient
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.release.judge import ClaimEvidence
from factledger.ports.semantic_judge import (
    JudgeFinding,
    JudgeRequest,
    JudgeSupported,
    JudgeUnavailable,
    JudgeUnsupported,
)
from tests.support.chat_server import Answer, chat_server, message

REQUEST = JudgeRequest(
    "The acquirer pool is exhausted.",
    (
        ClaimEvidence(
            AnalysisKind.SUPPORTING_EVIDENCE,
            "GW-504: pool exhausted",
            ({"evidence": [{"excerpt": "GW-504 pool exhausted"}]},),
            ({"query": "GW-504"},),
        ),
    ),
)


def _judge(url: str) -> LlmJudge:
    return LlmJudge(ChatClient(url, "judge-model", "sk-test", max_retries=2, backoff_seconds=0.01))


def test_a_supported_verdict_is_read_and_the_request_is_strict_and_deterministic() -> None:
    verdict = json.dumps({"verdict": "SUPPORTED", "unsupported": []})
    with chat_server([Answer(message(verdict))]) as server:
        answer = _judge(server.url).judge(REQUEST, 5.0)
        assert answer == JudgeSupported((11, 7))
        sent = server.requests[0]
        assert sent["temperature"] == 0.0
        assert sent["model"] == "judge-model"
        response_format = sent["response_format"]
        assert isinstance(response_format, dict)
        schema = response_format["json_schema"]
        assert isinstance(schema, dict)
        assert schema["strict"] is True


def test_an_unsupported_verdict_names_the_analyses() -> None:
    verdict = json.dumps({"verdict": "UNSUPPORTED", "unsupported": [0, -1]})
    with chat_server([Answer(message(verdict))]) as server:
        assert _judge(server.url).judge(REQUEST, 5.0) == JudgeUnsupported(
            (JudgeFinding(0, "MODEL_UNSUPPORTED"), JudgeFinding(-1, "MODEL_UNSUPPORTED")), (11, 7)
        )


@pytest.mark.parametrize(
    "content",
    [
        "SUPPORTED",
        json.dumps({"verdict": "MAYBE", "unsupported": []}),
        json.dumps({"verdict": "SUPPORTED", "unsupported": [0]}),
        json.dumps({"verdict": "UNSUPPORTED", "unsupported": [7]}),
        json.dumps({"verdict": "SUPPORTED", "unsupported": [], "note": "x"}),
    ],
)
def test_anything_but_the_exact_verdict_is_unavailable_never_a_guess(content: str) -> None:
    with chat_server([Answer(message(content))]) as server:
        answer = _judge(server.url).judge(REQUEST, 5.0)
        assert isinstance(answer, JudgeUnavailable)
        assert answer.reason == "MALFORMED_VERDICT"


def test_a_429_then_success_is_retried() -> None:
    verdict = json.dumps({"verdict": "SUPPORTED", "unsupported": []})
    answers = [Answer({"error": "slow down"}, status=429, headers={"Retry-After": "0"}),
               Answer(message(verdict))]  # fmt: skip
    with chat_server(answers) as server:
        assert isinstance(_judge(server.url).judge(REQUEST, 5.0), JudgeSupported)
        assert len(server.requests) == 2


def test_a_500_forever_is_unavailable_with_a_code_not_the_server_text() -> None:
    with chat_server([Answer({"error": "internal: password=hunter2"}, status=500)]) as server:
        answer = _judge(server.url).judge(REQUEST, 5.0)
        assert answer == JudgeUnavailable("HTTP_500")
        assert len(server.requests) == 3


def test_a_slow_judge_times_out_within_its_limit() -> None:
    verdict = json.dumps({"verdict": "SUPPORTED", "unsupported": []})
    with chat_server([Answer(message(verdict), delay=2.0)]) as server:
        started = time.monotonic()
        answer = _judge(server.url).judge(REQUEST, 0.3)
        assert isinstance(answer, JudgeUnavailable)
        assert answer.reason in {"TIMEOUT", "DEADLINE"}
        assert time.monotonic() - started < 1.5
