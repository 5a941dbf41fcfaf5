"""The three demo transcripts give their documented outcomes, on the embedded store and on
Redis, and ``factledger demo --json`` prints them keyed by scenario."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.cli.main import main
from factledger.adapters.cli.scenario import run_transcript
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.demo.incident import demo_settings, transcript_path
from factledger.application.harness import Harness
from factledger.domain.json_types import JsonObject


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.integration)])
def harness(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Harness]:
    store = None
    if request.param == "redis":
        store = StoreSettings(
            kind="redis",
            url=request.getfixturevalue("redis_url"),
            key_prefix=request.getfixturevalue("key_prefix"),
        )
    built = build_harness(demo_settings(tmp_path, store))
    yield built
    built.close()


def _fallback(release: JsonObject) -> JsonObject:
    fallback = release["fallback"]
    assert isinstance(fallback, dict)
    return fallback


def test_the_honest_agent_gets_success_with_its_sources(harness: Harness) -> None:
    result = run_transcript(harness, transcript_path("honest"))
    release = result.release.to_json()
    assert release["outcome"] == "SUCCESS", json.dumps(release)[:2000]
    assert release["run_state"] == "SUCCESS"
    published = release["published_result"]
    assert isinstance(published, dict)
    assert "GW-504" in str(published["conclusion"])
    sources = published["source_documents"]
    assert isinstance(sources, list)
    kinds = {source["source_type"] for source in sources if isinstance(source, dict)}
    assert kinds == {"lookup_knowledge", "query_logs", "query_sql", "query_metrics"}
    assert [o.status for _, o in result.observations] == ["READY"] * 5


def test_the_hallucinating_agent_falls_back_with_its_violations(harness: Harness) -> None:
    result = run_transcript(harness, transcript_path("hallucinating"))
    release = result.release.to_json()
    assert release["outcome"] == "FALLBACK"
    fallback = _fallback(release)
    assert fallback["type"] == "EVIDENCE_VALIDATION_FAILED"
    assert fallback["failure_stage"] == "EVIDENCE_VALIDATION"
    issues = fallback["validation_issues"]
    assert isinstance(issues, list)
    codes = [(i["code"], i["tool_call_id"]) for i in issues if isinstance(i, dict)]
    assert ("UNKNOWN_TOOL_CALL", "call-7") in codes
    assert ("UNKNOWN_TOOL_CALL", "call-9") in codes
    assert fallback["conclusion"] is None
    assert fallback["observed_facts"]


def test_the_looping_agent_is_stopped_and_falls_back_with_its_facts(harness: Harness) -> None:
    result = run_transcript(harness, transcript_path("looping"))
    release = result.release.to_json()
    assert release["outcome"] == "FALLBACK"
    fallback = _fallback(release)
    assert fallback["type"] == "INSUFFICIENT_EVIDENCE"
    assert fallback["stop_reason"] == "INFORMATION_SATURATED"
    assert fallback["observed_facts"]
    statuses = [o.error_code or o.status for _, o in result.observations]
    assert statuses == ["READY", "DUPLICATE_SCOPE", "READY", "STOP_REQUIRED", "STOP_REQUIRED"]


def test_no_planted_secret_reaches_an_observation_or_the_release(harness: Harness) -> None:
    assert "query_logs" in harness.tool_names
    planted = []
    logs = transcript_path("honest").parent.parent / "logs"
    text = (logs / "card-gateway.jsonl").read_text() + (logs / "payments-api.jsonl").read_text()
    for marker in ("sk_live_", "password=", "Bearer eyJ", "postgresql://payments:"):
        start = text.index(marker) + len(marker)
        planted.append(text[start : start + 12])
    for scenario in ("honest", "hallucinating", "looping"):
        result = run_transcript(harness, transcript_path(scenario))
        text = json.dumps(result.to_json())
        for secret in planted:
            assert secret not in text, (scenario, secret)


def test_the_demo_command_prints_every_scenario_as_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--json", "--dir", str(tmp_path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(printed) == {"honest", "hallucinating", "looping"}
    for value in printed.values():
        assert set(value) == {"run_id", "observations", "release"}
    assert printed["honest"]["release"]["outcome"] == "SUCCESS"
    assert printed["hallucinating"]["release"]["fallback"]["type"] == "EVIDENCE_VALIDATION_FAILED"
    assert printed["looping"]["release"]["fallback"]["stop_reason"] == "INFORMATION_SATURATED"
    assert main(["runs", "list", "--json", "--config", _store_config(tmp_path)]) == 0


def _store_config(folder: Path) -> str:
    path = folder / "factledger.toml"
    path.write_text(f'[store]\nkind = "sqlite"\npath = "{folder / "store.db"}"\n')
    return str(path)
