"""The agent loop checks a draft before releasing it and hands the check's issues back to the
model (bounded by ``[release] check_attempts``), against a real local HTTP model server."""

from __future__ import annotations

import json
from pathlib import Path

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import BudgetSettings, ReleaseSettings, StoreSettings
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.models.chat_http import ChatClient
from factledger.adapters.models.openai_model import OpenAiChatModel
from factledger.adapters.system import SystemClock
from factledger.application.agent_loop import AgentLoop
from factledger.application.harness import Harness
from factledger.domain.json_types import JsonObject
from tests.integration.test_agent_loop_openai import DRAFT, END, LOOKUP, START
from tests.support.chat_server import Answer, ChatServer, chat_server, message, tool_call
from tests.support.json_path import at

CALL = Answer(message(tool_calls=[tool_call("c1", "lookup_knowledge", LOOKUP)]))


def _citing(tool_call_id: str) -> str:
    mended = json.loads(DRAFT)
    mended["analyses"][0]["tool_call_ids"] = [tool_call_id]
    return json.dumps(mended)


def _harness(tmp_path: Path, checks: int) -> Harness:
    settings = demo_settings(tmp_path, StoreSettings(kind="memory")).model_copy(
        update={
            "budget": BudgetSettings(deadline_seconds=30, model_calls=8),
            "release": ReleaseSettings(check_attempts=checks),
        }
    )
    return build_harness(settings)


def _run(harness: Harness, server: ChatServer) -> tuple[str, JsonObject]:
    client = ChatClient(server.url, "agent-model", None, max_retries=0)
    run_id = harness.start_run(question="Why?", service="card-gateway", start=START, end=END)
    result = AgentLoop(harness, SystemClock()).run(OpenAiChatModel(client), run_id, "why")
    client.close()
    return run_id, result.release.to_json()


def _checks(harness: Harness, run_id: str) -> int:
    events = harness.parts.runs.events(run_id)
    assert isinstance(events, tuple)
    return sum(1 for item in events if item.event.TYPE == "DRAFT_CHECK")


def test_a_draft_that_fails_its_check_is_mended_by_the_model_before_release(
    tmp_path: Path,
) -> None:
    answers = [CALL, Answer(message(_citing("c9"))), Answer(message(_citing("c1")))]
    with chat_server(answers) as server, _harness(tmp_path, checks=3) as harness:
        run_id, release = _run(harness, server)
        assert release["outcome"] == "SUCCESS", release
        assert len(server.requests) == 3
        messages = server.requests[2]["messages"]
        assert isinstance(messages, list)
        assert messages[-2] == {"role": "assistant", "content": _citing("c9")}
        feedback = messages[-1]
        assert isinstance(feedback, dict)
        assert feedback["role"] == "user"
        check = json.loads(str(feedback["content"]).split("The check: ", 1)[1])
        assert check["passed"] is False
        assert check["validation_issues"][0]["tool_call_id"] == "c9"
        assert check["validation_issues"][0]["reason"] == "NOT_IN_RUN"
        assert _checks(harness, run_id) == 2  # the mended draft was checked too


def test_feedback_stops_when_the_checks_run_out_and_the_last_draft_is_released(
    tmp_path: Path,
) -> None:
    answers = [CALL, Answer(message(_citing("c9"))), Answer(message(_citing("c8")))]
    with chat_server(answers) as server, _harness(tmp_path, checks=1) as harness:
        run_id, release = _run(harness, server)
        assert len(server.requests) == 3  # one round of feedback, then no check is left
        assert release["outcome"] == "FALLBACK"
        fallback = release["fallback"]
        assert isinstance(fallback, dict)
        issues = fallback["validation_issues"]
        assert isinstance(issues, list)
        assert [at(issue, "tool_call_id") for issue in issues] == ["c8"]
        assert _checks(harness, run_id) == 1


def test_with_checks_off_the_first_draft_is_released(tmp_path: Path) -> None:
    answers = [CALL, Answer(message(_citing("c9")))]
    with chat_server(answers) as server, _harness(tmp_path, checks=0) as harness:
        run_id, release = _run(harness, server)
        assert len(server.requests) == 2
        assert release["outcome"] == "FALLBACK"
        assert _checks(harness, run_id) == 0
