"""``factledger logs project`` and ``factledger logs mine``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factledger.adapters.cli.main import main
from factledger.domain.logs.agent_result import MODEL_VISIBLE_KEYS

LOG = (
    "2024-06-01T10:00:00Z INFO user 1 logged in from 10.0.0.1\n"
    "2024-06-01T10:00:05Z ERROR payment failed password=abc123xyz\n"
    "java.lang.IllegalStateException: boom\n"
    "\tat com.acme.A.b(A.java:1)\n"
    "\n"
    "no timestamp here\n"
    "2024-06-01T10:01:00Z INFO user 2 logged in from 10.0.0.2\n"
)


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    path = tmp_path / "orders.log"
    path.write_text(LOG, encoding="utf-8")
    return path


def test_mine_prints_one_row_per_input_line_numbered_from_one(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["logs", "mine", str(log_file), "--jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["line"] for row in rows] == list(range(1, LOG.count("\n") + 1))
    assert rows[0]["template"] == rows[6]["template"] == "user <*> logged in from <*>"
    assert rows[1]["template"] == "payment failed password=<*>"
    assert rows[2]["template_id"] == rows[3]["template_id"] == rows[1]["template_id"]
    assert rows[5]["template"] == "no timestamp here"
    assert "abc123xyz" not in json.dumps(rows)


def test_project_prints_the_model_observation_and_nothing_control_only(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["logs", "project", str(log_file), "--json"]) == 0
    observation = json.loads(capsys.readouterr().out)
    assert observation["status"] == "READY"
    assert observation["evidence_status"] == "EVIDENCE_FOUND"
    assert set(observation) == {"tool_call_id", "status", "evidence_status", *MODEL_VISIBLE_KEYS}
    assert "returned_count" not in observation
    assert observation["matched_count"] == 4
    text = json.dumps(observation)
    assert "abc123xyz" not in text
    assert "10.0.0.1" not in text


def test_project_filters_narrow_the_scope(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "logs",
            "project",
            str(log_file),
            "--query",
            "payment",
            "--start",
            "2024-06-01T10:00:01Z",
            "--end",
            "2024-06-01T10:00:30Z",
            "--json",
        ]
    )
    assert code == 0
    observation = json.loads(capsys.readouterr().out)
    assert observation["matched_count"] == 1
    assert observation["scope"] == {
        "service": None,
        "query": "payment",
        "start": "2024-06-01T10:00:01.000Z",
        "end": "2024-06-01T10:00:30.000Z",
        "skipped": {},
    }


def test_project_with_no_match_is_a_scoped_no_evidence(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["logs", "project", str(log_file), "--service", "billing", "--json"]) == 0
    observation = json.loads(capsys.readouterr().out)
    assert observation["evidence_status"] == "NO_EVIDENCE"
    assert observation["scope"]["service"] == "billing"
    assert observation["patterns"] == []


def test_project_refuses_a_bad_timestamp_and_a_missing_path(
    log_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["logs", "project", str(log_file), "--start", "yesterday", "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "INVALID_ARGUMENT"
    assert "BAD_TIMESTAMP" in error["message"]
    assert main(["logs", "project", str(tmp_path / "absent.log"), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "NOT_FOUND"
    assert main(["logs", "project", str(log_file), "--start", "yesterday"]) == 2
    assert "BAD_TIMESTAMP" in capsys.readouterr().err


def test_project_reads_a_folder_below_a_dot_folder_named_relative_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / ".factledger" / "demo" / "logs"
    logs.mkdir(parents=True)
    (logs / "card-gateway.log").write_text("2026-03-14T09:41:00Z ERROR GW-504 pool exhausted\n")
    (logs / ".card-gateway.log.partial").write_text("2026-03-14T09:41:00Z ERROR GW-504 half\n")
    monkeypatch.chdir(tmp_path)
    assert main(["logs", "project", ".factledger/demo/logs", "--query", "GW-504", "--json"]) == 0
    observation = json.loads(capsys.readouterr().out)
    assert observation["evidence_status"] == "EVIDENCE_FOUND"
    assert observation["matched_count"] == 1
    assert observation["scope"]["skipped"] == {"hidden_entries": 1}
    assert observation["truncated"] is True
    assert "SCOPE_NOT_FULLY_READ" in observation["truncation_reasons"]
    assert (
        main(["logs", "project", ".factledger/demo/logs", "--service", "card-gateway", "--json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["matched_count"] == 1
