"""A locked or unreachable audit database answers STORE_UNAVAILABLE within a second: the
facade's audit view never waits out a lock another process holds, and answers again once the
lock is given up."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import make_url

from factledger.adapters.audit.wiring import audit_url
from factledger.adapters.bootstrap import build_harness
from factledger.adapters.cli.scenario import run_transcript
from factledger.adapters.config.sections import AuditSettings
from factledger.adapters.demo.incident import demo_settings, transcript_path
from factledger.application.harness import Harness, HarnessError
from tests.support.locks import SqliteLock, mariadb_tables_locked, sqlite_lock_held
from tests.support.processes import free_port

pytestmark = pytest.mark.integration


def _answer_time(harness: Harness, run_id: str) -> tuple[str, float]:
    started = time.monotonic()
    try:
        harness.audit(run_id)
    except HarnessError as error:
        return error.code, time.monotonic() - started
    return "ROWS", time.monotonic() - started


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    with build_harness(demo_settings(tmp_path)) as built:
        yield built


def _audit_file(tmp_path: Path) -> Path:
    database = make_url(audit_url(demo_settings(tmp_path))).database
    assert database is not None
    return Path(database)


@pytest.mark.parametrize("mode", ["IMMEDIATE", "EXCLUSIVE"])
def test_a_locked_sqlite_audit_answers_store_unavailable_within_a_second(
    harness: Harness, tmp_path: Path, mode: SqliteLock
) -> None:
    first = run_transcript(harness, transcript_path("honest"))
    assert _answer_time(harness, first.run_id)[0] == "ROWS"
    second = run_transcript(harness, transcript_path("looping"))  # not projected yet
    with sqlite_lock_held(_audit_file(tmp_path), mode):
        code, seconds = _answer_time(harness, second.run_id)
    assert code == "STORE_UNAVAILABLE"
    assert seconds < 1.0, seconds
    assert _answer_time(harness, second.run_id)[0] == "ROWS"


def test_an_audit_locked_before_it_was_ever_opened_answers_within_a_second(
    harness: Harness, tmp_path: Path
) -> None:
    run = run_transcript(harness, transcript_path("honest"))
    path = _audit_file(tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite_lock_held(path, "EXCLUSIVE"):
        code, seconds = _answer_time(harness, run.run_id)
    assert (code, seconds < 1.0) == ("STORE_UNAVAILABLE", True), seconds
    assert _answer_time(harness, run.run_id)[0] == "ROWS"


def test_a_mariadb_audit_with_its_tables_locked_answers_within_a_second(
    tmp_path: Path, mariadb_audit_url: str
) -> None:
    settings = demo_settings(tmp_path).model_copy(
        update={"audit": AuditSettings(url=mariadb_audit_url)}
    )
    with build_harness(settings) as harness:
        first = run_transcript(harness, transcript_path("honest"))
        assert _answer_time(harness, first.run_id)[0] == "ROWS"
        second = run_transcript(harness, transcript_path("looping"))
        with mariadb_tables_locked(
            mariadb_audit_url,
            "audit_checkpoints",
            "audit_runs",
        ):
            code, seconds = _answer_time(harness, second.run_id)
        assert code == "STORE_UNAVAILABLE"
        assert seconds < 1.0, seconds
        assert _answer_time(harness, second.run_id)[0] == "ROWS"


def test_an_unreachable_mariadb_audit_answers_within_a_second(tmp_path: Path) -> None:
    nobody = f"mysql+pymysql://root@127.0.0.1:{free_port()}/audit"
    settings = demo_settings(tmp_path).model_copy(update={"audit": AuditSettings(url=nobody)})
    with build_harness(settings) as harness:
        run = run_transcript(harness, transcript_path("honest"))
        code, seconds = _answer_time(harness, run.run_id)
    assert code == "STORE_UNAVAILABLE"
    assert seconds < 1.0, seconds
