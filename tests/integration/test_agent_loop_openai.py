"""The agent loop driving the OpenAI-compatible adapter against a real local HTTP server."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import BudgetSettings, StoreSettings
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


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    settings = demo_settings(tmp_path, StoreSettings(kind="memory")).model_copy(
        update={"budget": BudgetSettings(deadline_seconds=20, model_calls=6)}
    )
    built = build_harness(settings)
    yield built
    built.close()


def _run(harness: Harness, url: str) -> tuple[JsonObject, float]:
    client = ChatClient(url, "agent-model", "sk-test", max_retries=3, backoff_seconds=0.05)
    run_id = harness.start_run(question="Why do payments fail?", service="card-gateway",
                               start=START, end=END)  # fmt: skip
    began = time.monotonic()
    result = AgentLoop(harness, SystemClock()).run(OpenAiChatModel(client), run_id, "why")
    client.close()
    return result.to_json(), time.monotonic() - began


def test_a_tool_call_loop_then_a_draft_is_released_as_success(harness: Harness) -> None:
    answers = [Answer(message(tool_calls=[tool_call("c1", "lookup_knowledge", LOOKUP)])),
               Answer(message(DRAFT))]  # fmt: skip
    with chat_server(answers) as server:
        result, _ = _run(harness, server.url)
        release = result["release"]
        assert isinstance(release, dict)
        assert release["outcome"] == "SUCCESS", release
        assert len(server.requests) == 2
        second = server.requests[1]
        messages = second["messages"]
        assert isinstance(messages, list)
        assert at(messages, -1, "role") == "tool"
        assert at(messages, -1, "tool_call_id") == "c1"
        tools = second["tools"]
        assert isinstance(tools, list)
        names = {at(tool, "function", "name") for tool in tools}
        assert names == {"lookup_knowledge", "query_logs", "query_sql", "query_metrics"}
    summary = harness.run_summary(str(result["run_id"]))
    assert summary.model_calls == 2
    assert summary.model_tokens == 36


def test_a_429_then_success_is_retried_within_the_same_turn(harness: Harness) -> None:
    answers = [Answer({"error": "rate"}, status=429, headers={"Retry-After": "0"}),
               Answer(message(tool_calls=[tool_call("c1", "lookup_knowledge", LOOKUP)])),
               Answer(message(DRAFT))]  # fmt: skip
    with chat_server(answers) as server:
        result, _ = _run(harness, server.url)
        assert at(result, "release", "outcome") == "SUCCESS"
        assert len(server.requests) == 3
    assert harness.run_summary(str(result["run_id"])).model_calls == 2


def test_a_model_failing_forever_ends_the_run_within_its_deadline_closed(
    harness: Harness,
) -> None:
    with chat_server([Answer({"error": "boom"}, status=500)]) as server:
        result, elapsed = _run(harness, server.url)
    release = result["release"]
    assert isinstance(release, dict)
    assert release["outcome"] == "FAILED"  # nothing verified: no fallback can be built
    assert release["published_result"] is None
    assert elapsed < 20


def test_a_model_that_never_stops_calling_tools_is_bounded_by_its_budget(
    harness: Harness,
) -> None:
    calls = [Answer(message(tool_calls=[tool_call(f"c{i}", "lookup_knowledge",
             json.dumps({"previous_observation": None if i == 0 else
                         {"tool_call_id": f"c{i - 1}", "evaluation": "GAINED"},
                         "input": {"query": f"card-gateway runbook {i}"}}))]))
             for i in range(20)]  # fmt: skip
    with chat_server(calls) as server:
        result, _ = _run(harness, server.url)
        assert len(server.requests) == 6  # the model-call budget
    release = result["release"]
    assert isinstance(release, dict)
    assert release["run_state"] == "BUDGET_EXHAUSTED"
    assert release["outcome"] == "FALLBACK"


def test_parallel_tool_calls_of_one_reply_are_one_step_and_each_is_answered(
    harness: Harness,
) -> None:
    runbook = json.dumps({"previous_observation": None, "input": {"query": "GW-504 remedy"}})
    both = [{"tool_call_id": "c1", "evaluation": "GAINED"},
            {"tool_call_id": "c2", "evaluation": "NO_GAIN"}]  # fmt: skip
    later = json.dumps({"previous_observation": both, "input": {"query": "card-gateway pool"}})
    answers = [Answer(message(tool_calls=[tool_call("c1", "lookup_knowledge", LOOKUP),
                                          tool_call("c2", "lookup_knowledge", runbook)])),
               Answer(message(tool_calls=[tool_call("c3", "lookup_knowledge", later)])),
               Answer(message(DRAFT))]  # fmt: skip
    with chat_server(answers) as server:
        result, _ = _run(harness, server.url)
        third = server.requests[2]["messages"]
        assert isinstance(third, list)
        answered = [at(m, "tool_call_id") for m in third if at(m, "role") == "tool"]
        assert answered == ["c1", "c2", "c3"]
    observations = result["observations"]
    assert isinstance(observations, list)
    assert [at(o, "observation", "status") for o in observations] == ["READY"] * 3
    control = harness.control_view(str(result["run_id"]), "c3")
    assert control.violations == 0
