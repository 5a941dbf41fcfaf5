"""A whole demo run over logs and a database holding planted secrets (the honest, the
hallucinating and the looping agent), then the audit projections: no planted secret, no
request text and no SQL text is in any audit column, any event or any log record."""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from returns.result import Success

from factledger.adapters.audit.store import dump_rows
from factledger.adapters.audit.wiring import open_audit
from factledger.adapters.bootstrap import build_harness
from factledger.adapters.cli.scenario import run_transcript
from factledger.adapters.demo.incident import SCENARIOS, demo_settings, transcript_path
from factledger.adapters.logging_setup import LOGGER_NAME
from factledger.adapters.system import SystemClock
from factledger.application.projections.projector import CatchUpReport
from factledger.domain.json_types import JsonValue

_PLANTED = (
    re.compile(r"sk_live_[A-Za-z0-9]+"),
    re.compile(r"password=([^\s\"\\,;&]+)"),
    re.compile(r"Bearer ([A-Za-z0-9._\-]+)"),
    re.compile(r"postgresql://[^:/\s]+:([^@\s]+)@"),
)


def _planted_in_logs(folder: Path) -> set[str]:
    found: set[str] = set()
    for path in folder.glob("*.jsonl"):
        text = path.read_text(encoding="utf-8")
        for pattern in _PLANTED:
            for match in pattern.finditer(text):
                found.add(match.group(match.lastindex or 0))
    return found


def _planted_in_database(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as connection:
        rows = connection.execute("SELECT password_hash, api_token FROM users").fetchall()
    return {str(value) for row in rows for value in row if value}


def _request_texts() -> set[str]:
    """The question, every query and every SQL text the recorded agents send."""
    texts: set[str] = set()

    def walk(value: JsonValue, key: str = "") -> None:
        if isinstance(value, dict):
            for name, item in value.items():
                walk(item, name)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif isinstance(value, str) and key in ("query", "sql", "question", "conclusion"):
            texts.add(value)

    for scenario in SCENARIOS:
        walk(json.loads(transcript_path(scenario).read_text(encoding="utf-8")))
    return texts


@pytest.fixture
def records(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger=LOGGER_NAME)
    return caplog


def test_no_planted_secret_request_or_sql_text_reaches_the_audit_the_events_or_the_logs(
    tmp_path: Path, records: pytest.LogCaptureFixture
) -> None:
    settings = demo_settings(tmp_path)
    harness = build_harness(settings)
    store = harness.parts.runs.store
    run_ids = []
    try:
        for scenario in SCENARIOS:
            run_ids.append(run_transcript(harness, transcript_path(scenario)).run_id)
        audit = open_audit(settings, store, SystemClock()).unwrap()
        for projector in audit.projectors:
            assert isinstance(projector.catch_up(), CatchUpReport)
        columns = [
            str(value)
            for rows in dump_rows(audit.store).values()
            for row in rows
            for value in row
            if value is not None
        ]
        audit.close()
        events = []
        for run_id in run_ids:
            stored = store.read_run(run_id)
            assert isinstance(stored, Success)
            events += [event.data.decode("utf-8") for event in stored.unwrap()]
    finally:
        harness.close()
    logged = [record.getMessage() for record in records.records if record.name == LOGGER_NAME]

    planted = _planted_in_logs(tmp_path / "demo" / "logs") | _planted_in_database(
        tmp_path / "demo" / "payments.db"
    )
    texts = _request_texts()
    assert len(planted) >= 8
    assert any(text.startswith("SELECT") for text in texts)
    assert len(columns) > 100
    assert len(events) > 40
    assert [json.loads(line)["event"] for line in logged].count("release.decided") == 3
    haystacks = {"audit column": columns, "event": events, "log record": logged}
    for where, values in haystacks.items():
        for value in values:
            for secret in planted:
                assert secret not in value, (where, secret)
            for text in texts:
                assert text not in value, (where, text)
