"""``query_logs`` end to end: registered from settings, through the interceptor and boundary."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import LogsSettings
from factledger.adapters.config.settings import Settings
from factledger.application.canonical_view import CanonicalInvocation
from factledger.application.interceptor import Observed
from factledger.application.run_repository import StoreFailed
from factledger.application.run_service import StartedRun
from factledger.domain.json_types import JsonObject
from factledger.domain.run_events import DiagnosisContext
from tests.unit.test_views_and_snapshot import OBSERVATION_KEYS

SECRET = "hunter2-Zq9"


@pytest.fixture
def log_dir(tmp_path: Path) -> Path:
    lines = []
    for minute in range(30):
        lines.append(
            {"ts": f"2026-03-01T10:{minute:02d}:00Z", "service": "card-gateway", "level": "INFO",
             "message": f"authorized payment {1000 + minute} in {120 + minute} ms"}
        )  # fmt: skip
    for minute in range(40, 50):
        lines.append(
            {"ts": f"2026-03-01T10:{minute:02d}:30Z", "service": "card-gateway", "level": "ERROR",
             "message": "GW-504 acquirer call failed: pool exhausted (active=64 idle=0 "
             f"pending={300 + minute}) password={SECRET}"}
        )  # fmt: skip
    (tmp_path / "card-gateway.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return tmp_path


@pytest.fixture
def runtime(log_dir: Path) -> Iterator[Runtime]:
    built = build_runtime(Settings(logs=LogsSettings(dir=str(log_dir))))
    yield built
    built.close()


def _start(runtime: Runtime) -> str:
    started = runtime.run_service.start(
        budget=runtime.budget,
        tools=runtime.registry.grants,
        context=DiagnosisContext("card-gateway"),
    )
    assert isinstance(started, StartedRun)
    return started.run_id


def _call(runtime: Runtime, run_id: str, tool_call_id: str, **overrides: object) -> JsonObject:
    request: dict[str, object] = {
        "service": "card-gateway",
        "query": "pool exhausted",
        "start": "2026-03-01T10:00:00Z",
        "end": "2026-03-01T11:00:00Z",
        "limit": None,
    }
    request.update(overrides)
    arguments = json.dumps({"previous_observation": None, "input": request})
    handled = runtime.interceptor.handle(run_id, tool_call_id, "query_logs", arguments)
    assert isinstance(handled, Observed)
    return handled.observation


def test_matching_lines_come_back_as_redacted_patterns_with_the_window(runtime: Runtime) -> None:
    run_id = _start(runtime)
    observation = _call(runtime, run_id, "l1")
    assert observation["status"] == "READY", observation
    assert observation["evidence_status"] == "EVIDENCE_FOUND"
    assert observation["matched_count"] == 10
    assert observation["patterns"]
    assert "returned_count" not in observation
    assert set(observation) <= OBSERVATION_KEYS
    text = json.dumps(observation)
    assert SECRET not in text
    assert "GW-504" in text
    scope = observation["scope"]
    assert isinstance(scope, dict)
    assert scope["service"] == "card-gateway"
    record = runtime.canonical.read(run_id, "l1")
    assert isinstance(record, CanonicalInvocation)
    assert record.is_citable
    assert record.raw_response is not None
    assert SECRET.encode() in record.raw_response  # the raw stays with the harness
    for event in runtime.store.read_run(run_id).unwrap():
        assert SECRET.encode() not in event.data


def test_no_match_is_a_ready_negative_with_the_same_scope(runtime: Runtime) -> None:
    run_id = _start(runtime)
    observation = _call(runtime, run_id, "l1", query="deadlock")
    assert observation["status"] == "READY"
    assert observation["evidence_status"] == "NO_EVIDENCE"
    assert observation["matched_count"] == 0
    assert observation["patterns"] == []


def test_an_empty_window_is_refused_before_anything_runs(runtime: Runtime) -> None:
    run_id = _start(runtime)
    observation = _call(
        runtime, run_id, "l1", start="2026-03-01T11:00:00Z", end="2026-03-01T10:00:00Z"
    )
    assert observation == {
        "tool_call_id": "l1",
        "status": "REFUSED",
        "error_code": "INVALID_ENVELOPE",
        "reason": "EMPTY_WINDOW",
    }


def test_a_missing_log_folder_is_a_backend_error(tmp_path: Path) -> None:
    runtime = build_runtime(Settings(logs=LogsSettings(dir=str(tmp_path / "gone"))))
    run_id = _start(runtime)
    observation = _call(runtime, run_id, "l1")
    assert observation == {
        "tool_call_id": "l1",
        "status": "ERROR",
        "error_code": "BACKEND_ERROR",
        "reason": "LOG_DIR_MISSING",
    }
    runtime.close()


def test_a_search_that_could_not_read_a_file_is_an_incomplete_negative_named_in_the_snapshot(
    runtime: Runtime, log_dir: Path
) -> None:
    (log_dir / "card-gateway.jsonl.1.gz").write_bytes(b"\x1f\x8b\x08\x00\x00 GW-777")
    (log_dir / ".card-gateway.jsonl.swp").write_text("GW-777")
    run_id = _start(runtime)
    observation = _call(runtime, run_id, "l1", query="GW-777")
    assert observation["status"] == "READY"
    assert observation["evidence_status"] == "NO_EVIDENCE"
    assert observation["truncated"] is True
    assert observation["truncation_reasons"] == ["SCOPE_NOT_FULLY_READ"]
    scope = observation["scope"]
    assert isinstance(scope, dict)
    assert scope["skipped"] == {"hidden_entries": 1, "binary_files": 1}
    snapshot = runtime.snapshots.build(run_id)
    assert not isinstance(snapshot, StoreFailed)
    assert any("did not read all of its scope" in note for note in snapshot.limitations)
    (fact,) = snapshot.observed_facts
    assert fact.summary.startswith("Incomplete search (not read: 1 hidden entry, 1 binary file)")
