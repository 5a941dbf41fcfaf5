"""A SQLite store in a temporary folder holding one finished run, and a way to run the CLI."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path

import pytest
from attrs import frozen

from factledger.adapters.bootstrap import build_runtime
from factledger.adapters.cli.main import main
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.memory.clock import ManualClock
from factledger.application.run_service import StartedRun
from factledger.domain.budget import RunBudget
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from factledger.ports.clock import Clock
from tests.support.workers import call_once

GRANTS = (ToolGrant("lookup_knowledge", True),)


@frozen
class Recorded:
    """A store file, the settings file that points at it, and the run it holds."""

    config: Path
    database: Path
    run_id: str

    def sql(self, statement: str, *params: object) -> list[tuple[object, ...]]:
        """Run one statement on the store file directly, as someone tampering with it would."""
        with closing(sqlite3.connect(self.database)) as connection, connection:
            return connection.execute(statement, params).fetchall()


@frozen
class Cli:
    """Runs ``factledger`` in-process and captures what it prints."""

    capsys: pytest.CaptureFixture[str]

    def __call__(self, *args: str) -> tuple[int, str, str]:
        code = main(list(args))
        captured = self.capsys.readouterr()
        return code, captured.out, captured.err


def write_config(folder: Path, database: Path) -> Path:
    config = folder / "factledger.toml"
    config.write_text(f'[store]\nkind = "sqlite"\npath = "{database.as_posix()}"\n')
    return config


def record_run(
    database: Path, clock: Clock | None = None, calls: int = 3, *, release: bool = False
) -> str:
    """A run with ``calls`` READY tool calls written through the runtime, then cancelled, or
    released without a draft (a fallback: RELEASE_DECISION, then RUN_ENDED)."""
    runtime = build_runtime(
        Settings(store=StoreSettings(kind="sqlite", path=str(database))), clock=clock
    )
    try:
        started = runtime.run_service.start(
            budget=RunBudget(), tools=GRANTS, context=DiagnosisContext("payments")
        )
        assert isinstance(started, StartedRun), started
        for index in range(1, calls + 1):
            assert call_once(runtime, started.run_id, f"call-{index}") == "READY"
        if release:
            runtime.releases.release(started.run_id, None)
        else:
            runtime.run_service.cancel(started.run_id)
        return started.run_id
    finally:
        runtime.close()


@pytest.fixture
def recorded(tmp_path: Path) -> Recorded:
    database = tmp_path / "state" / "store.db"
    run_id = record_run(database)
    return Recorded(write_config(tmp_path, database), database, run_id)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(capsys)


def long_ago() -> ManualClock:
    """A clock far enough in the past that every body written with it has expired by now."""
    return ManualClock(datetime.fromisoformat("2020-01-01T00:00:00+00:00"))
