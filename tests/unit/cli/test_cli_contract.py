"""The command line's contract: exit codes by release outcome, errors as JSON under --json,
the outcome column of ``runs list`` and output within 100 columns."""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

import pytest

from factledger.adapters.cli.contract import ExitCode, exit_for
from factledger.adapters.cli.main import build_parser
from factledger.adapters.demo.incident import ensure_payments_db, transcript_path
from factledger.domain.status import ReleaseOutcome
from tests.unit.cli.conftest import Cli, Recorded, record_run, write_config

WIDTH = 100


def test_every_outcome_has_its_own_exit_code_and_success_alone_is_zero() -> None:
    codes = {outcome: exit_for(outcome) for outcome in ReleaseOutcome}
    assert codes[ReleaseOutcome.SUCCESS] == 0
    assert len(set(codes.values())) == len(ReleaseOutcome)
    assert not set(codes.values()) & {ExitCode.ERROR, ExitCode.USAGE}


@pytest.fixture
def demo_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example settings over the bundled incident, in a folder of its own."""
    root = Path(__file__).resolve().parents[3]
    for folder in ("knowledge", "logs", "transcripts"):
        shutil.copytree(root / "adapters/demo" / folder, tmp_path / "adapters/demo" / folder)
    shutil.copy(root / "adapters/demo/metrics.json", tmp_path / "adapters/demo/metrics.json")
    shutil.copy(root / "factledger.toml.example", tmp_path / "factledger.toml.example")
    ensure_payments_db(tmp_path / ".factledger" / "demo")
    monkeypatch.chdir(tmp_path)
    for name in [name for name in os.environ if name.startswith("FACTLEDGER_")]:
        monkeypatch.delenv(name)
    return tmp_path / "factledger.toml.example"


@pytest.mark.parametrize(
    ("scenario", "outcome", "code"),
    [("honest", "SUCCESS", 0), ("hallucinating", "FALLBACK", ExitCode.FALLBACK)],
)
def test_run_exits_with_the_code_of_its_release_outcome(
    cli: Cli, demo_config: Path, scenario: str, outcome: str, code: int
) -> None:
    transcript = str(transcript_path(scenario))
    exit_code, out, _ = cli(
        "run", "--config", str(demo_config), "--json", "--transcript", transcript
    )
    assert json.loads(out)["release"]["outcome"] == outcome
    assert exit_code == code


def test_run_errors_are_json_under_json(cli: Cli, demo_config: Path, tmp_path: Path) -> None:
    missing = str(tmp_path / "absent.json")
    code, out, err = cli("run", "--config", str(demo_config), "--json", "--transcript", missing)
    assert code == ExitCode.USAGE
    error = json.loads(out)["error"]
    assert error["code"] == "INVALID_ARGUMENT"
    assert error["message"]
    assert err == ""


def test_runs_list_shows_the_release_outcome_not_the_run_state(tmp_path: Path, cli: Cli) -> None:
    database = tmp_path / "store.db"
    released = record_run(database, calls=1, release=True)
    cancelled = record_run(database, calls=1)
    config = str(write_config(tmp_path, database))
    code, out, _ = cli("runs", "list", "--config", config)
    assert code == 0
    header, *rows = out.splitlines()
    assert "OUTCOME" in header.split()
    by_run = {row.split()[0]: row.split() for row in rows}
    assert by_run[released][3:5] == ["SUCCESS", "FALLBACK"]  # state, then outcome
    assert by_run[cancelled][3:5] == ["CANCELLED", "-"]
    code, out, _ = cli("runs", "list", "--json", "--outcome", "FALLBACK", "--config", config)
    listed = [json.loads(line) for line in out.splitlines()]
    assert [(run["run_id"], run["outcome"], run["state"]) for run in listed] == [
        (released, "FALLBACK", "SUCCESS")
    ]
    assert listed[0]["fallback_type"] == "MISSING_REQUIRED_CONTEXT"


def test_runs_list_show_and_verify_stay_within_100_columns(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # even a wide terminal gets 100 columns at most
    database = tmp_path / "store.db"
    run_id = record_run(database, calls=3, release=True)
    config = str(write_config(tmp_path, database))
    outputs = [
        cli("runs", "list", "--config", config)[1],
        cli("runs", "show", run_id, "--config", config)[1],
        cli("runs", "verify", "--all", "--config", config)[1],
    ]
    for out in outputs:
        lines = out.splitlines()
        assert len(lines) > 1
        assert max(len(line) for line in lines) <= WIDTH, max(lines, key=len)


def test_runs_errors_are_json_under_json(recorded: Recorded, cli: Cli, tmp_path: Path) -> None:
    code, out, err = cli("runs", "show", "run-none", "--json", "--config", str(recorded.config))
    assert code == ExitCode.ERROR
    assert json.loads(out) == {
        "error": {"code": "UNKNOWN_RUN", "message": "no run 'run-none' in this store"}
    }
    assert err == ""
    bad = tmp_path / "bad.toml"
    bad.write_text('[store]\nkind = "floppy"\n')
    code, out, _ = cli("runs", "list", "--json", "--config", str(bad))
    assert code == ExitCode.USAGE
    assert json.loads(out)["error"]["code"] == "INVALID_SETTINGS"


def test_no_progress_bar_is_drawn_when_the_output_is_not_a_terminal(
    recorded: Recorded, cli: Cli
) -> None:
    code, out, err = cli("runs", "verify", "--all", "--config", str(recorded.config))
    assert code == 0
    assert err == ""
    assert "verifying runs" not in out


def _leaf_commands() -> dict[str, argparse.ArgumentParser]:
    """Every command and sub-command of ``factledger`` that runs something."""
    leaves: dict[str, argparse.ArgumentParser] = {}

    def walk(prefix: str, parser: argparse.ArgumentParser) -> None:
        children = [
            action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
        ]
        if not children:
            leaves[prefix.strip()] = parser
        for action in children:
            for name, child in action.choices.items():
                walk(f"{prefix} {name}", child)

    walk("", build_parser())
    return leaves


def test_every_command_that_prints_takes_json() -> None:
    leaves = _leaf_commands()
    assert {"run", "demo", "runs list", "runs show", "runs verify", "serve"} <= set(leaves)
    missing = [
        name
        for name, parser in leaves.items()
        if not any("--json" in action.option_strings for action in parser._actions)
    ]
    assert missing == []


def _on_a_terminal(*args: str) -> tuple[int, str]:
    """Run ``factledger`` with standard output and error on a pseudo-terminal."""
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    factledger = Path(sys.executable).parent / "factledger"
    env = {k: v for k, v in os.environ.items() if not k.startswith("FACTLEDGER_")}
    process = subprocess.Popen(
        [str(factledger), *args], stdout=follower, stderr=follower, env={**env, "COLUMNS": "100"}
    )
    os.close(follower)
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return process.wait(timeout=60), b"".join(chunks).decode(errors="replace")


def test_verify_all_and_rebuild_draw_a_bar_on_a_terminal(tmp_path: Path) -> None:
    database = tmp_path / "store.db"
    for calls in (1, 2):
        record_run(database, calls=calls, release=True)
    config = str(write_config(tmp_path, database))
    code, shown = _on_a_terminal("runs", "verify", "--all", "--config", config)
    assert code == 0
    assert "verifying runs" in shown
    assert "2/2" in shown
    code, shown = _on_a_terminal("rebuild", "--config", config)
    assert code == 0
    assert "audit     partitions" in shown  # the bar, not only the summary line
    assert "8/8" in shown
    code, shown = _on_a_terminal("runs", "verify", "--all", "--json", "--config", config)
    assert code == 0
    assert "verifying runs" not in shown


def test_mcp_startup_errors_are_json_under_json(cli: Cli, tmp_path: Path) -> None:
    missing = str(tmp_path / "absent.toml")
    exit_code, out, _ = cli("mcp", "--config", missing, "--json")
    assert exit_code == ExitCode.USAGE
    assert json.loads(out)["error"]["code"] == "INVALID_SETTINGS"
