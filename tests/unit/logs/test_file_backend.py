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


def test_a_dot_folder_given_as_the_log_folder_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = tmp_path / ".factledger" / "demo" / "logs"
    logs.mkdir(parents=True)
    (logs / "card-gateway.log").write_text("2026-03-14T09:41:00Z ERROR GW-504 pool exhausted\n")
    monkeypatch.chdir(tmp_path)
    raw = _run(Path(".factledger/demo/logs"), _query(text="gw-504"))
    assert raw["matched_count"] == 1
    assert raw["skipped"] == {}


def test_hidden_entries_below_the_folder_are_counted_not_read(tmp_path: Path) -> None:
    (tmp_path / "app.log").write_text("2024-06-01T10:00:00Z INFO visible\n")
    (tmp_path / ".swap.log").write_text("2024-06-01T10:00:00Z INFO hidden file\n")
    (tmp_path / ".gitkeep").write_text("")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / "svc").mkdir()
    (tmp_path / "svc" / ".old.log").write_text("2024-06-01T10:00:00Z INFO hidden too\n")
    raw = _run(tmp_path, _query())
    assert raw["matched_count"] == 1
    assert raw["skipped"] == {"hidden_entries": 3}


def test_a_negative_result_over_a_folder_with_an_unread_file_is_incomplete(tmp_path: Path) -> None:
    (tmp_path / "app.log").write_text("2024-06-01T10:00:00Z INFO nothing special\n")
    (tmp_path / "app.log.1.gz").write_bytes(b"\x1f\x8b\x08\x00\x00\x00 timeout")
    query = _query(text="timeout")
    raw_text = FileLogBackend(tmp_path).query(query, deadline=time.monotonic() + LATER).unwrap()
    result = project_logs(raw_text, query).unwrap()
    assert result.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert result.truncated
    assert obj(result.agent_result["scope"])["skipped"] == {"binary_files": 1}
    assert result.agent_result["truncation_reasons"] == ["SCOPE_NOT_FULLY_READ"]


def test_links_are_never_followed_and_those_leading_outside_are_counted(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.log").write_text("2024-06-01T10:00:00Z INFO from outside\n")
    logs = tmp_path / "logs"
    (logs / "payments").mkdir(parents=True)
    (logs / "payments" / "today.log").write_text("2024-06-01T10:00:00Z INFO inside\n")
    (logs / "current.log").symlink_to(logs / "payments" / "today.log")
    (logs / "mirror").symlink_to(logs / "payments")
    (logs / "escape.log").symlink_to(outside / "secret.log")
    (logs / "escape-dir").symlink_to(outside)
    (logs / "dangling.log").symlink_to(tmp_path / "gone.log")
    raw = _run(logs, _query())
    assert [obj(item)["message"] for item in arr(raw["records"])] == ["inside"]
    assert raw["skipped"] == {"symlinks": 3}


def test_special_and_unreadable_files_are_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from factledger.adapters.logs.file_reader import open_log_file

    os.mkfifo(tmp_path / "pipe.log")
    (tmp_path / "locked.log").write_text("2024-06-01T10:00:00Z INFO locked\n")
    (tmp_path / "open.log").write_text("2024-06-01T10:00:00Z INFO open\n")

    def refusing(path: str, follow_links: bool) -> object:
        return None if path.endswith("locked.log") else open_log_file(path, follow_links)

    monkeypatch.setattr("factledger.adapters.logs.file_backend.open_log_file", refusing)
    raw = _run(tmp_path, _query())
    assert raw["matched_count"] == 1
    assert raw["skipped"] == {"unreadable_files": 2}


def test_a_file_that_fails_part_way_is_counted_and_what_was_read_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from factledger.adapters.logs import file_reader

    lines = "".join(f"2024-06-01T10:00:{i:02d}Z INFO tick {i}\n" for i in range(60))
    (tmp_path / "app.log").write_text(lines)
    monkeypatch.setattr(file_reader, "CHUNK_BYTES", 256)
    real_pread = os.pread

    def failing(fd: int, length: int, offset: int) -> bytes:
        if offset >= 1024:
            raise OSError(5, "Input/output error")
        return real_pread(fd, length, offset)

    monkeypatch.setattr(os, "pread", failing)
    raw = _run(tmp_path, _query())
    assert 0 < int(str(raw["matched_count"])) < 60
    assert raw["skipped"] == {"unreadable_files": 1}


def test_a_text_query_parses_only_the_records_around_its_hits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from factledger.domain.logs.line_format import build_record

    lines = [
        f'{{"ts":"2024-06-01T10:00:00Z","service":"a","message":"ok {i}"}}' for i in range(5000)
    ]
    lines[3210] = '{"ts":"2024-06-01T10:00:01Z","service":"a","message":"QuotaExceeded"}'
    (tmp_path / "a.jsonl").write_text("\n".join(lines) + "\n")
    parsed: list[int] = []

    def counting(lines: list[str], first_line: int, inherited: str | None = None) -> object:
        parsed.append(1)
        return build_record(lines, first_line, inherited)

    monkeypatch.setattr("factledger.adapters.logs.hit_scan.build_record", counting)
    raw = _run(tmp_path, _query(text="quotaexceeded"))
    assert raw["matched_count"] == 1
    assert obj(arr(raw["records"])[0])["line"] == 3211
    assert len(parsed) == 1


def test_a_repeated_window_query_reads_only_the_stretch_of_the_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from factledger.adapters.logs import file_reader, time_index, window_scan

    monkeypatch.setattr(time_index, "BLOCK_BYTES", 64 << 10)
    monkeypatch.setattr(window_scan, "GRID_BYTES", 64 << 10)
    lines = [
        f'{{"ts":"2024-06-01T{i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z","message":"t {i}"}}'
        for i in range(0, 86_400, 2)
    ]
    (tmp_path / "app.jsonl").write_text("\n".join(lines) + "\n")
    size = (tmp_path / "app.jsonl").stat().st_size
    backend = FileLogBackend(tmp_path)
    window = _query(
        start=datetime(2024, 6, 1, 20, tzinfo=UTC), end=datetime(2024, 6, 1, 20, 10, tzinfo=UTC)
    )
    first = backend.query(window, deadline=time.monotonic() + LATER).unwrap()
    read: list[int] = []
    real_read = file_reader.FileBytes.read

    def counting(self: file_reader.FileBytes, offset: int, length: int) -> bytes:
        data = real_read(self, offset, length)
        read.append(len(data))
        return data

    monkeypatch.setattr(file_reader.FileBytes, "read", counting)
    again = backend.query(window, deadline=time.monotonic() + LATER).unwrap()
    assert again == first
    assert json.loads(again)["matched_count"] == 301
    assert sum(read) < size / 10
