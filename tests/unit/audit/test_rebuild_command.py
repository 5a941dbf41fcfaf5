"""``factledger rebuild``: a JSON summary off a terminal, the same rows every time, deleted
rows restored, one run on its own, and a clear failure for a run the log does not hold."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from factledger.adapters.cli.main import main
from tests.unit.audit.support import dump_rows, open_store
from tests.unit.cli.conftest import record_run, write_config


def _rebuild(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main(["rebuild", *args])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    database = tmp_path / "state" / "store.db"
    runs = [record_run(database, calls=n, release=True) for n in (1, 3)]
    return write_config(tmp_path, database), database.parent / "audit.db", runs


def test_rebuild_prints_a_summary_and_gives_the_same_rows_every_time(
    recorded: tuple[Path, Path, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    config, audit_file, _ = recorded
    code, summary = _rebuild(capsys, "--config", str(config))
    assert code == 0
    rebuilt = summary["rebuilt"]
    assert isinstance(rebuilt, list)
    assert [item["projection"] for item in rebuilt] == ["audit", "retention"]
    assert rebuilt[0]["events"] == rebuilt[1]["events"] > 0
    store = open_store(audit_file)
    first = dump_rows(store)
    assert len(first["audit_runs"]) == 2
    assert len(first["audit_invocations"]) == 4
    assert _rebuild(capsys, "--config", str(config), "--json")[0] == 0
    assert dump_rows(store) == first
    with closing(sqlite3.connect(audit_file)) as connection, connection:
        for table in ("audit_transitions", "audit_invocations", "audit_runs"):
            connection.execute(f"DELETE FROM {table}")
    code, summary = _rebuild(capsys, "--config", str(config), "--projection", "audit")
    assert code == 0
    rebuilt = summary["rebuilt"]
    assert isinstance(rebuilt, list)
    assert [item["projection"] for item in rebuilt] == ["audit"]
    assert dump_rows(store) == first
    store.close()


def test_rebuild_of_one_run_replaces_only_its_rows(
    recorded: tuple[Path, Path, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    config, audit_file, runs = recorded
    assert _rebuild(capsys, "--config", str(config))[0] == 0
    store = open_store(audit_file)
    first = dump_rows(store)
    with closing(sqlite3.connect(audit_file)) as connection, connection:
        connection.execute("UPDATE audit_runs SET tool_calls = 99")
    code, summary = _rebuild(capsys, "--config", str(config), "--run", runs[1])
    assert code == 0
    assert summary["run_id"] == runs[1]
    changed = dump_rows(store)["audit_runs"]
    assert [row for row in changed if row[0] == runs[1]] == [
        row for row in first["audit_runs"] if row[0] == runs[1]
    ]
    assert [row[0] for row in changed if 99 in row] == [runs[0]]
    store.close()


def test_a_run_the_log_does_not_hold_is_a_failure_that_keeps_every_row(
    recorded: tuple[Path, Path, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    config, _, _ = recorded
    code, summary = _rebuild(capsys, "--config", str(config), "--run", "run-unknown", "--json")
    assert code == 1
    assert summary == {
        "error": {"code": "RUN_NOT_IN_LOG", "message": "the log holds no run 'run-unknown'"}
    }
    assert main(["rebuild", "--config", str(config), "--run", "run-unknown"]) == 1
    assert "RUN_NOT_IN_LOG" not in capsys.readouterr().out


def test_an_audit_url_of_another_database_is_a_settings_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "factledger.toml"
    config.write_text('[store]\nkind = "memory"\n[audit]\nurl = "postgresql://u@h/db"\n')
    assert main(["rebuild", "--config", str(config)]) == 2
    assert "audit.url" in capsys.readouterr().err
