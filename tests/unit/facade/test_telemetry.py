"""The facade reports its measurements to every registered sink: calls by tool and status,
budget refusals, releases with their fallback type, guard issues by code; a failing sink
never breaks a call, and a removed one hears nothing more."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import get_args

from factledger import Settings, build_harness
from factledger.adapters.config.sections import BudgetSettings, StoreSettings
from factledger.application.observation import ObservationStatus
from factledger.application.telemetry import call_status
from factledger.ports.telemetry import CallStatus
from tests.unit.facade.tools import EchoTool

START = datetime(2026, 3, 14, 9, tzinfo=UTC)
END = datetime(2026, 3, 14, 10, tzinfo=UTC)


class Recorder:
    """A sink that keeps what it was told."""

    def __init__(self) -> None:
        self.seen: list[tuple[object, ...]] = []

    def tool_call(self, tool: str, status: str, seconds: float) -> None:
        assert seconds >= 0.0
        self.seen.append(("call", tool, status))

    def release(self, outcome: str, fallback_type: str | None, seconds: float) -> None:
        self.seen.append(("release", outcome, fallback_type))

    def guard_violation(self, code: str) -> None:
        self.seen.append(("violation", code))

    def budget_refusal(self, budget: str) -> None:
        self.seen.append(("budget", budget))


class Broken(Recorder):
    """A sink that fails on every report."""

    def tool_call(self, tool: str, status: str, seconds: float) -> None:
        raise RuntimeError("down")


def _echo(text: str, previous: str | None = None) -> str:
    evaluation = None if previous is None else {"tool_call_id": previous, "evaluation": "GAINED"}
    return json.dumps({"previous_observation": evaluation, "input": {"text": text}})


def test_calls_budget_refusals_and_releases_reach_every_sink() -> None:
    settings = Settings(store=StoreSettings(kind="memory"), budget=BudgetSettings(tool_calls=1))
    with build_harness(settings, tools=[EchoTool()]) as harness:
        recorder, broken = Recorder(), Broken()
        harness.add_telemetry(broken)
        stop = harness.add_telemetry(recorder)
        run_id = harness.start_run(question="q", service="s", start=START, end=END)
        first = harness.observe(run_id, "c-1", "echo_evidence", _echo("a"))
        refused = harness.observe(run_id, "c-2", "echo_evidence", _echo("b", "c-1"))
        harness.observe(run_id, "c-3", "no_such_tool", "{}")
        analysis = {"kind": "FACT", "claim": "y", "tool_call_ids": ["c-9"]}
        draft = {"conclusion": "x", "analyses": [analysis]}
        harness.release(run_id, json.dumps(draft))
        stop()
        harness.observe(run_id, "c-4", "echo_evidence", _echo("c"))

    assert first.status.value == "READY"
    assert refused.error_code == "BUDGET_EXHAUSTED"
    assert recorder.seen[:4] == [
        ("call", "echo_evidence", "READY"),
        ("call", "echo_evidence", "REFUSED"),
        ("budget", "tool_call"),
        ("call", "(unknown)", "REFUSED"),
    ]
    releases = [entry for entry in recorder.seen if entry[0] == "release"]
    assert len(releases) == 1
    assert releases[0][1] in ("FALLBACK", "FAILED")
    assert any(entry[0] == "violation" for entry in recorder.seen), recorder.seen
    assert len([entry for entry in recorder.seen if entry[0] == "call"]) == 3


def test_the_statuses_a_sink_is_told_are_exactly_the_observation_statuses() -> None:
    assert set(get_args(CallStatus)) == {status.value for status in ObservationStatus}
    assert {call_status(status) for status in ObservationStatus} == set(get_args(CallStatus))
    for status in ObservationStatus:
        assert call_status(status) == status.value
