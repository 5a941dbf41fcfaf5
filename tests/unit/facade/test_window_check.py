"""A tool may refuse a call its run's window does not allow (``refuse_in_window``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from factledger import Settings, build_harness
from factledger.tools import RunWindow
from tests.unit.facade.tools import EchoInput, EchoTool

START, END = datetime(2026, 3, 14, 9, tzinfo=UTC), datetime(2026, 3, 14, 10, tzinfo=UTC)


class WindowedEcho(EchoTool):
    """Refuses every call of a run whose window starts before 09:30, and records the window."""

    def __init__(self) -> None:
        super().__init__()
        self.windows: list[RunWindow] = []

    def refuse_in_window(self, request: EchoInput, window: RunWindow) -> str | None:
        self.windows.append(window)
        return "TOO_EARLY" if window.start.minute < 30 else None


def _call(start: datetime) -> tuple[dict[str, Any], int, WindowedEcho]:
    tool = WindowedEcho()
    with build_harness(Settings.model_validate({"store": {"kind": "memory"}}), tools=[tool]) as h:
        run_id = h.start_run(question="q", service="checkout", start=start, end=END)
        arguments = json.dumps({"previous_observation": None, "input": {"text": "hello"}})
        shown = h.observe(run_id, "c1", tool.name, arguments).to_json()
        return shown, h.run_summary(run_id).tool_calls, tool


def test_a_call_the_run_window_refuses_is_an_invalid_envelope_that_never_runs() -> None:
    shown, calls, tool = _call(START)
    assert shown["error_code"] == "INVALID_ENVELOPE"
    assert shown["reason"] == "TOO_EARLY"
    assert calls == 0
    assert tool.windows == [RunWindow(START, END)]


def test_a_call_the_run_window_allows_runs() -> None:
    shown, calls, _ = _call(START.replace(minute=45))
    assert shown["status"] == "READY", shown
    assert calls == 1
