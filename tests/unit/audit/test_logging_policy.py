"""Log records: one JSON object each, with ids, codes, sizes and durations; anything else is
dropped or withheld, and the boundary and the release each leave one record."""

from __future__ import annotations

import json
import logging

import pytest

from factledger.adapters.bootstrap import build_runtime
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.logging_setup import LOGGER_NAME, logger
from factledger.application.run_service import StartedRun
from factledger.domain.budget import RunBudget
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from tests.support.workers import call_once


def _records(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == LOGGER_NAME]


def test_a_key_off_the_list_is_dropped_and_text_that_is_not_a_code_is_withheld(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER_NAME)
    logger().info(
        "tool_call.finished",
        run_id="run-1",
        query="SELECT password FROM users",
        code="password=hunter2 sk_live_0123",
        raw_bytes=12,
    )
    (record,) = _records(caplog)
    assert record["run_id"] == "run-1"
    assert record["raw_bytes"] == 12
    assert record["code"] == "<withheld>"
    assert "query" not in record
    assert set(record) <= {"event", "level", "timestamp", "run_id", "code", "raw_bytes"}


def test_every_call_and_the_release_leave_one_record_with_ids_sizes_and_duration(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER_NAME)
    runtime = build_runtime(Settings(store=StoreSettings(kind="memory")))
    try:
        started = runtime.run_service.start(
            budget=RunBudget(),
            tools=(ToolGrant("lookup_knowledge", True),),
            context=DiagnosisContext("payments"),
        )
        assert isinstance(started, StartedRun)
        assert call_once(runtime, started.run_id, "call-1") == "READY"
        assert call_once(runtime, started.run_id, "call-1") == "DUPLICATE_TOOL_CALL_ID"
        runtime.releases.release(started.run_id, None)
    finally:
        runtime.close()
    calls = [r for r in _records(caplog) if r["event"] == "tool_call.finished"]
    assert [(r["tool_call_id"], r["status"], r["code"]) for r in calls] == [
        ("call-1", "READY", None),
        ("call-1", "REFUSED", "DUPLICATE_TOOL_CALL_ID"),
    ]
    ready = calls[0]
    assert ready["run_id"] == started.run_id
    assert (ready["tool"], ready["request_bytes"], ready["raw_bytes"]) == (
        "lookup_knowledge",
        14,
        19,
    )
    assert isinstance(ready["duration_ms"], float)
    (release,) = [r for r in _records(caplog) if r["event"] == "release.decided"]
    assert (release["run_id"], release["outcome"], release["code"]) == (
        started.run_id,
        "FALLBACK",
        "DECIDED",
    )
    assert release["fallback_type"] == "MISSING_REQUIRED_CONTEXT"
