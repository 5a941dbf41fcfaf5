"""The agent loop admits a model turn's several tool calls as one step, and the next turn
evaluates every pending result of it; a transcript turn may hold several calls (the
single-call turn stays valid); a repeated call (a framework's retry) is answered again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.models.transcript import TranscriptError, TranscriptModel, load_transcript
from factledger.adapters.system import SystemClock
from factledger.application.agent_loop import AgentLoop, LoopResult
from factledger.application.harness import Harness
from factledger.domain.json_types import JsonObject

CONTEXT: JsonObject = {
    "service": "card-gateway",
    "start": "2026-03-14T09:00:00Z",
    "end": "2026-03-14T10:00:00Z",
}
LOOKUP: JsonObject = {
    "previous_observation": None,
    "input": {"query": "GW-504 pool exhausted remedy"},
}
LOGS: JsonObject = {
    "previous_observation": None,
    "input": {
        "service": "card-gateway",
        "query": "GW-504",
        "start": "2026-03-14T09:00:00Z",
        "end": "2026-03-14T10:00:00Z",
        "limit": None,
    },
}
SQL: JsonObject = {
    "previous_observation": [
        {"tool_call_id": "call-1", "evaluation": "GAINED"},
        {"tool_call_id": "call-2", "evaluation": "GAINED"},
    ],
    "input": {
        "datasource": "payments",
        "sql": "SELECT status, COUNT(id) AS orders FROM orders "
        "WHERE created_at >= '2026-03-14 09:40:00' GROUP BY status ORDER BY status",
    },
}
DRAFT: JsonObject = {
    "conclusion": "Card payments fail with GW-504 because the acquirer pool is exhausted.",
    "analyses": [
        {
            "kind": "SUPPORTING_EVIDENCE",
            "claim": "card-gateway logs GW-504 acquirer calls failing: pool exhausted.",
            "tool_call_ids": ["call-2"],
        }
    ],
}


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    built = build_harness(demo_settings(tmp_path, StoreSettings(kind="memory")))
    yield built
    built.close()


def _call(call_id: str, name: str, arguments: JsonObject) -> JsonObject:
    return {"id": call_id, "name": name, "arguments": arguments}


def _replay(harness: Harness, turns: list[JsonObject]) -> LoopResult:
    transcript = load_transcript(
        json.dumps({"question": "why?", "context": CONTEXT, "turns": turns})
    )
    run_id = harness.start_run(
        question=transcript.question,
        service=transcript.service,
        start=transcript.start,
        end=transcript.end,
    )
    model = TranscriptModel(transcript)
    return AgentLoop(harness, SystemClock()).run(model, run_id, "why?", repairer=model.repairer)


def test_a_turn_of_several_calls_is_one_step_and_the_next_turn_evaluates_them_all(
    harness: Harness,
) -> None:
    result = _replay(
        harness,
        [
            {
                "tool_calls": [
                    _call("call-1", "lookup_knowledge", LOOKUP),
                    _call("call-2", "query_logs", LOGS),
                ]
            },
            {"tool_calls": [_call("call-3", "query_sql", SQL)]},
            {"draft": DRAFT},
        ],
    )
    statuses = {call_id: o.status.value for call_id, o in result.observations}
    assert statuses == {"call-1": "READY", "call-2": "READY", "call-3": "READY"}, (
        result.observations
    )
    for _, observation in result.observations:
        assert observation.to_json()["evidence_status"] == "EVIDENCE_FOUND"
    views = {i: harness.canonical_view(result.run_id, i) for i in ("call-1", "call-2", "call-3")}
    assert [views[i].step for i in ("call-1", "call-2", "call-3")] == [1, 1, 2]
    control = harness.control_view(result.run_id, "call-3")
    assert control.violations == 0
    assert control.pending_evaluations == ("call-3",)


def test_a_turn_repeating_a_call_gets_the_same_observation_and_no_violation(
    harness: Harness,
) -> None:
    result = _replay(
        harness,
        [
            {"tool_call": _call("call-1", "lookup_knowledge", LOOKUP)},
            {"tool_call": _call("call-1", "lookup_knowledge", LOOKUP)},
            {
                "tool_call": _call(
                    "call-2",
                    "query_logs",
                    {
                        **LOGS,
                        "previous_observation": {"tool_call_id": "call-1", "evaluation": "GAINED"},
                    },
                )
            },
            {"draft": DRAFT},
        ],
    )
    observations = [observation for _, observation in result.observations]
    assert observations[0] == observations[1]
    assert observations[2].status.value == "READY"
    assert harness.control_view(result.run_id, "call-2").violations == 0


def test_a_turn_holding_two_kinds_is_refused() -> None:
    turn = {
        "tool_call": _call("c", "lookup_knowledge", LOOKUP),
        "tool_calls": [_call("d", "lookup_knowledge", LOOKUP)],
    }
    with pytest.raises(TranscriptError, match="exactly one"):
        load_transcript(json.dumps({"turns": [turn]}))
    with pytest.raises(TranscriptError):
        load_transcript(json.dumps({"turns": [{"tool_calls": []}]}))
