"""The embedded file backend: formats, continuation lines, filters, limits and failures."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from returns.result import Failure

from factledger.adapters.logs.file_backend import FileLogBackend
from factledger.domain.logs.projector import project_logs
from factledger.domain.logs.query import LogQuery
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from tests.unit.logs.raw_builders import arr, obj

LATER = 60.0


def _query(**changes: object) -> LogQuery:
    base: dict[str, object] = {"service": None, "text": None, "start": None, "end": None}
    base.update(changes)
    return LogQuery(**base)  # type: ignore[arg-type]


def _run(directory: Path, query: LogQuery) -> dict[str, object]:
    raw = FileLogBackend(directory).query(query, deadline=time.monotonic() + LATER).unwrap()
    parsed = json.loads(raw)
    assert isinstance(parsed, dict)
    return parsed


@pytest.fixture
def log_dir(tmp_path: Path) -> Path:
    (tmp_path / "orders.log").write_text(
        "2024-06-01T10:00:00.000Z INFO order 1 placed\n"
        "2024-06-01 10:00:01,500 ERROR payment failed for order 2\n"
        "java.lang.IllegalStateException: boom\n"
        "\tat com.acme.Pay.charge(Pay.java:10)\n"
        "\t... 4 more\n"
        "2024-06-01T10:05:00Z [WARN] slow query took 1200 ms\n"
        "a line without any time\n",
        encoding="utf-8",
    )
    (tmp_path / "events.jsonl").write_text(
        json.dumps(
            {
                "ts": "2024-06-01T10:02:00Z",
                "service": "billing",
                "level": "error",
                "message": "invoice timeout",
                "invoice": 7,
            }
        )
        + "\n"
        + json.dumps({"ts": 1717236360000, "service": "orders", "msg": "order 3 placed"})
        + "\n",
        encoding="utf-8",
    )
    (tmp_path / ".hidden.log").write_text("2024-06-01T10:00:00Z ERROR hidden\n")
    return tmp_path


def test_plain_text_and_json_lines_become_records_in_time_order(log_dir: Path) -> None:
    raw = _run(log_dir, _query())
    records = raw["records"]
    assert isinstance(records, list)
    messages = [item["message"] for item in records]
    assert messages == [
        "order 1 placed",
        "payment failed for order 2",
        "invoice timeout",
        "slow query took 1200 ms",
        "a line without any time",
        "order 3 placed",
    ]
    assert raw["matched_count"] == 6
    assert raw["limit_reached"] is False


def test_a_stack_trace_attaches_to_the_record_it_follows(log_dir: Path) -> None:
    records = _run(log_dir, _query())["records"]
    assert isinstance(records, list)
    failed = next(item for item in records if item["message"] == "payment failed for order 2")
    assert failed["level"] == "ERROR"
    assert failed["ts"] == "2024-06-01T10:00:01.500Z"
    assert failed["stack"] == [
        "java.lang.IllegalStateException: boom",
        "\tat com.acme.Pay.charge(Pay.java:10)",
        "\t... 4 more",
    ]


def test_json_fields_other_than_the_envelope_are_kept(log_dir: Path) -> None:
    records = _run(log_dir, _query(service="billing"))["records"]
    assert records == [
        {
            "ts": "2024-06-01T10:02:00.000Z",
            "service": "billing",
            "level": "ERROR",
            "message": "invoice timeout",
            "fields": {"invoice": 7},
            "stack": [],
            "source": "events.jsonl",
            "line": 1,
        }
    ]


def test_a_plain_text_record_belongs_to_the_service_its_file_is_named_after(log_dir: Path) -> None:
    raw = _run(log_dir, _query(service="orders"))
    assert raw["matched_count"] == 5


def test_filters_combine_service_text_and_time_window(log_dir: Path) -> None:
    query = _query(
        service="orders",
        text="ORDER placed",
        start=datetime(2024, 6, 1, 10, 0, 0, tzinfo=UTC),
        end=datetime(2024, 6, 1, 10, 1, 0, tzinfo=UTC),
    )
    raw = _run(log_dir, query)
    assert [obj(item)["message"] for item in arr(raw["records"])] == ["order 1 placed"]
    assert raw["window"] == {"start": "2024-06-01T10:00:00.000Z", "end": "2024-06-01T10:01:00.000Z"}


def test_zero_matches_is_a_normal_result_that_projects_to_no_evidence(log_dir: Path) -> None:
    query = _query(text="no such words")
    raw_text = FileLogBackend(log_dir).query(query, deadline=time.monotonic() + LATER).unwrap()
    result = project_logs(raw_text, query).unwrap()
    assert result.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert result.agent_result["matched_count"] == 0


def test_over_the_limit_the_matched_count_stays_exact_and_errors_are_kept(tmp_path: Path) -> None:
    lines = [f"2024-06-01T10:{i // 60:02d}:{i % 60:02d}.000Z INFO tick {i}" for i in range(3000)]
    lines[2990] = "2024-06-01T10:49:50.000Z ERROR late failure"
    (tmp_path / "svc.log").write_text("\n".join(lines) + "\n")
    raw = _run(tmp_path, _query(limit=100))
    records = raw["records"]
    assert isinstance(records, list)
    assert raw["matched_count"] == 3000
    assert raw["returned_count"] == len(records) <= 100
    assert raw["limit_reached"] is True
    assert raw["level_counts"] == {"ERROR": 1, "INFO": 2999}
    assert any(item["message"] == "late failure" for item in records)
    assert records[-1]["ts"] > "2024-06-01T10:40:00.000Z"


def test_a_passed_deadline_is_a_timeout_not_a_partial_result(log_dir: Path) -> None:
    outcome = FileLogBackend(log_dir).query(_query(), deadline=time.monotonic() - 1)
    assert outcome == Failure(BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))


def test_a_missing_directory_is_a_backend_error(tmp_path: Path) -> None:
    outcome = FileLogBackend(tmp_path / "absent").query(_query(), deadline=time.monotonic() + 1)
    assert outcome == Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "LOG_DIR_MISSING"))


def test_binary_files_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "core.dump").write_bytes(b"\x00\x01\x02 ERROR")
    (tmp_path / "app.log").write_text("2024-06-01T10:00:00Z ERROR real\n")
    raw = _run(tmp_path, _query())
    assert raw["matched_count"] == 1


def test_the_file_backend_is_a_log_backend(tmp_path: Path) -> None:
    from factledger.ports.logs import LogBackend

    backend: LogBackend = FileLogBackend(tmp_path)
    raw = json.loads(backend.query(_query(), deadline=time.monotonic() + LATER).unwrap())
    assert raw["matched_count"] == 0
    assert raw["window"] == {"start": None, "end": None}
