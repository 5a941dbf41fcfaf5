"""A model that cannot be reached, over real HTTP: the agent loop records MODEL_CALL_FAILED
with a reason code and the release answers FALLBACK with the facts gathered, or FAILED with
MODEL_UNAVAILABLE without any; the LLM judge's outage in release is recorded the same way."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import (
    BudgetSettings,
    JudgeSettings,
    ModelSettings,
    StoreSettings,
)
from factledger.adapters.config.settings import Settings
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.models.chat_http import ChatClient
from factledger.adapters.models.openai_model import OpenAiChatModel
from factledger.adapters.system import SystemClock
from factledger.application.agent_loop import AgentLoop
from factledger.application.harness import Harness
from factledger.domain.json_types import JsonObject
from tests.support.chat_server import Answer, chat_server, message, tool_call
from tests.support.json_path import at

START = datetime(2026, 3, 14, 9, 0, tzinfo=UTC)
END = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)
LOOKUP = json.dumps({"previous_observation": None, "input": {"query": "GW-504 pool exhausted"}})
DRAFT = json.dumps(
    {
        "conclusion": "The acquirer connection pool of card-gateway is exhausted, causing GW-504.",
        "analyses": [
            {
                "kind": "SUPPORTING_EVIDENCE",
                "claim": "card-gateway fails with GW-504 when the acquirer connection pool is "
                "exhausted.",
                "tool_call_ids": ["c1"],
            }
        ],
    }
)
DOWN = Answer({"error": "overloaded"}, status=503, headers={"Retry-After": "0"})


def _settings(tmp_path: Path) -> Settings:
    return demo_settings(tmp_path, StoreSettings(kind="memory")).model_copy(
        update={"budget": BudgetSettings(deadline_seconds=30, model_calls=8)}
    )


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    built = build_harness(_settings(tmp_path))
    yield built
    built.close()


def _closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"  # nothing listens there once the socket is closed


def _loop(harness: Harness, url: str, *, retries: int = 1) -> JsonObject:
    client = ChatClient(url, "agent-model", None, max_retries=retries, backoff_seconds=0.01)
    run_id = harness.start_run(question="Why?", service="card-gateway", start=START, end=END)
    result = AgentLoop(harness, SystemClock()).run(OpenAiChatModel(client), run_id, "why")
    client.close()
    return result.to_json()


def _failures(harness: Harness, run_id: str) -> list[JsonObject]:
    runs = harness.parts.runs
    events = runs.events(run_id)
    assert isinstance(events, tuple)
    return [
        runs.codec.encode_payload(item.event)
        for item in events
        if item.event.TYPE == "MODEL_CALL_FAILED"
    ]


def test_an_unreachable_model_is_recorded_and_fails_as_model_unavailable(
    harness: Harness,
) -> None:
    result = _loop(harness, _closed_port_url())
    release = result["release"]
    assert isinstance(release, dict)
    assert (release["outcome"], release["failure_code"]) == ("FAILED", "MODEL_UNAVAILABLE")
    run_id = str(result["run_id"])
    assert _failures(harness, run_id) == [
        {"purpose": "AGENT_TURN", "step": 1, "reason": "CONNECTION_REFUSED"}
    ]
    assert at(harness.audit(run_id).to_json(), "run", "release_failure_code") == "MODEL_UNAVAILABLE"


def test_a_model_that_fails_after_evidence_leaves_a_fallback_naming_the_outage(
    harness: Harness,
) -> None:
    answers = [Answer(message(tool_calls=[tool_call("c1", "lookup_knowledge", LOOKUP)])), DOWN]
    with chat_server(answers) as server:
        result = _loop(harness, server.url)
    release = result["release"]
    assert isinstance(release, dict)
    assert (release["outcome"], release["failure_code"]) == ("FALLBACK", None)
    fallback = release["fallback"]
    assert isinstance(fallback, dict)
    assert fallback["type"] == "INSUFFICIENT_EVIDENCE"
    limitations = fallback["limitations"]
    assert isinstance(limitations, list)
    assert any("HTTP_5XX" in str(note) for note in limitations)
    assert _failures(harness, str(result["run_id"])) == [
        {"purpose": "AGENT_TURN", "step": 2, "reason": "HTTP_5XX"}
    ]


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (Answer("this is not JSON"), "MALFORMED_REPLY"),
        (Answer({"error": "no such model"}, status=404), "HTTP_4XX"),
        (Answer({"error": "slow down"}, status=429, headers={"Retry-After": "0"}), "RATE_LIMITED"),
    ],
    ids=["malformed", "4xx", "rate-limited"],
)
def test_each_kind_of_failed_reply_has_its_reason(
    harness: Harness, answer: Answer, reason: str
) -> None:
    with chat_server([answer]) as server:
        result = _loop(harness, server.url)
    assert _failures(harness, str(result["run_id"]))[0]["reason"] == reason


def test_a_turn_that_outlasts_the_run_is_a_timeout_and_the_run_times_out(tmp_path: Path) -> None:
    settings = _settings(tmp_path).model_copy(
        update={"budget": BudgetSettings(deadline_seconds=1, model_calls=8)}
    )
    with (
        chat_server([Answer(message(DRAFT), delay=2.0)]) as server,
        build_harness(settings) as harness,
    ):
        result = _loop(harness, server.url, retries=0)
        assert _failures(harness, str(result["run_id"]))[0]["reason"] == "TIMEOUT"
        release = result["release"]
        assert isinstance(release, dict)
        assert (release["outcome"], release["failure_code"]) == ("FAILED", "RUN_TIMED_OUT")


def test_a_judge_model_that_is_down_is_recorded_and_the_release_falls_back(
    tmp_path: Path,
) -> None:
    with chat_server([DOWN]) as server:
        settings = _settings(tmp_path).model_copy(
            update={
                "judge": JudgeSettings(kind="llm", attempts=2, timeout_seconds=5),
                "model": ModelSettings(base_url=server.url, name="judge-model"),
            }
        )
        with build_harness(settings) as harness:
            run_id = harness.start_run(service="card-gateway", start=START, end=END)
            observed = harness.observe(run_id, "c1", "lookup_knowledge", LOOKUP).to_json()
            assert observed["status"] == "READY"
            release = harness.release(run_id, DRAFT).to_json()
            assert (release["outcome"], release["failure_code"]) == ("FALLBACK", None)
            fallback = release["fallback"]
            assert isinstance(fallback, dict)
            assert fallback["type"] == "SEMANTIC_UNAVAILABLE"
            failures = _failures(harness, run_id)
            assert [failure["purpose"] for failure in failures] == ["SEMANTIC_JUDGE"] * 2
            assert {failure["reason"] for failure in failures} == {"HTTP_5XX"}
            assert harness.run_summary(run_id).model_calls == 2  # each attempt metered
