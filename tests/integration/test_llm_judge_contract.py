"""The LLM judge, over a real local Chat Completions server, passes the semantic judge contract;
the server is scripted with the verdict the contract expects, so the suite checks what the
adapter makes of a model's answer."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from factledger.adapters.judges.llm import LlmJudge
from factledger.adapters.judges.vetoed import VetoedJudge
from factledger.adapters.models.chat_http import ChatClient
from tests.contracts.semantic_judge_contract import (
    Expected,
    JudgeFactory,
    SemanticJudgeContract,
    UnreachableJudgeContract,
)
from tests.support.chat_server import Answer, chat_server, message

pytestmark = pytest.mark.integration


def _client(url: str) -> ChatClient:
    return ChatClient(url, "judge-model", "sk-test", max_retries=1, backoff_seconds=0.01)


def _verdict(expected: Expected) -> str:
    if expected == "SUPPORTED":
        return json.dumps({"verdict": "SUPPORTED", "unsupported": []})
    return json.dumps({"verdict": "UNSUPPORTED", "unsupported": list(expected)})


class TestLlmJudge(SemanticJudgeContract, UnreachableJudgeContract):
    @pytest.fixture
    def make_judge(self) -> Iterator[JudgeFactory]:
        with ExitStack() as servers:

            def build(expected: Expected) -> LlmJudge:
                server = servers.enter_context(chat_server([Answer(message(_verdict(expected)))]))
                return LlmJudge(_client(server.url))

            yield build

    @pytest.fixture
    def unreachable_judge(self) -> LlmJudge:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        return LlmJudge(_client(f"http://127.0.0.1:{port}/v1"))


class TestVetoedLlmJudge(SemanticJudgeContract, UnreachableJudgeContract):
    """``[judge] kind = "llm"``: the grounding judge's refusal stands before the model."""

    @pytest.fixture
    def make_judge(self) -> Iterator[JudgeFactory]:
        with ExitStack() as servers:

            def build(expected: Expected) -> VetoedJudge:
                server = servers.enter_context(chat_server([Answer(message(_verdict(expected)))]))
                return VetoedJudge(LlmJudge(_client(server.url)))

            yield build

    @pytest.fixture
    def unreachable_judge(self) -> VetoedJudge:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        return VetoedJudge(LlmJudge(_client(f"http://127.0.0.1:{port}/v1")))
