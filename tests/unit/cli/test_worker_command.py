"""``factledger worker``: one step with ``--once``, JSON lines, and the exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factledger.adapters.cli.main import main


def test_once_runs_a_step_and_every_job_then_exits_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FACTLEDGER_STORE__PATH", str(tmp_path / "store.db"))
    assert main(["worker", "--once", "--json", "--owner", "w1"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["event"] for line in lines] == ["started", "purged", "swept", "stopped"]
    assert lines[0]["owner"] == "w1"
    assert lines[1]["compacted"] is True


def test_the_in_memory_store_is_refused_with_a_message_naming_the_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FACTLEDGER_STORE__KIND", "memory")
    assert main(["worker", "--once"]) == 2
    assert capsys.readouterr().err.startswith("factledger worker: store.kind: ")


def test_a_bad_worker_setting_stops_start_up_naming_the_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FACTLEDGER_WORKER__PURGE_INTERVAL_SECONDS", "0")
    assert main(["worker", "--once"]) == 2
    assert "worker.purge_interval_seconds" in capsys.readouterr().err
