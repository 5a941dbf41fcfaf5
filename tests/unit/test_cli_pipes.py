"""Every command whose output goes to a pipe survives the reader going away: it stops with
exit code 141 and writes no traceback (real processes, real pipes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from factledger.adapters.cli.main import PIPE_CLOSED_EXIT

COMMAND = [sys.executable, "-m", "factledger.adapters.cli.main"]


def _with_closed_reader(arguments: list[str], folder: Path) -> tuple[int, bytes]:
    """Run a command whose standard output is a pipe closed before it writes anything."""
    process = subprocess.Popen(
        [*COMMAND, *arguments], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    assert process.stderr is not None
    process.stdout.close()
    errors = process.stderr.read()
    return process.wait(timeout=300), errors


def _head_one_line(arguments: list[str], folder: Path) -> tuple[int, bytes, bytes]:
    """Run a command as ``command | head -n 1`` would: read one line, then go away."""
    process = subprocess.Popen(
        [*COMMAND, *arguments], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    assert process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    errors = process.stderr.read()
    return process.wait(timeout=300), first, errors


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pipes")
    subprocess.run([*COMMAND, "demo", "--json"], cwd=folder, check=True, stdout=subprocess.DEVNULL)
    return folder


def test_logs_mine_into_a_pipe_that_closes_after_one_line_stops_quietly(tmp_path: Path) -> None:
    log = tmp_path / "app.log"
    log.write_text(
        "".join(f"2024-06-01T10:00:{i % 60:02d}Z INFO request {i} done\n" for i in range(20_000))
    )
    code, first, errors = _head_one_line(["logs", "mine", str(log), "--jsonl"], tmp_path)
    assert first.startswith(b'{"line": 1')
    assert b"Traceback" not in errors
    assert b"BrokenPipe" not in errors
    assert code == PIPE_CLOSED_EXIT


@pytest.mark.parametrize(
    "arguments",
    [
        ["runs", "list"],
        ["demo", "--json"],
        ["demo"],
        ["logs", "project", ".factledger/demo/logs", "--json"],
        ["logs", "mine", ".factledger/demo/logs/checkout.log", "--jsonl"],
    ],
)
def test_a_command_whose_reader_is_gone_before_it_writes_stops_quietly(
    arguments: list[str], demo_folder: Path
) -> None:
    code, errors = _with_closed_reader(arguments, demo_folder)
    assert b"Traceback" not in errors, errors.decode(errors="replace")
    assert b"BrokenPipe" not in errors
    assert code == PIPE_CLOSED_EXIT


def test_help_into_a_closed_pipe_writes_no_traceback(demo_folder: Path) -> None:
    code, errors = _with_closed_reader(["logs", "--help"], demo_folder)
    assert b"Traceback" not in errors
    assert code in (0, PIPE_CLOSED_EXIT)
