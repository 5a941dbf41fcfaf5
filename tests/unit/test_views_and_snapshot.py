"""The two views keep their field split, and the progress snapshot reads the canonical store."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.application.canonical_view import CanonicalInvocation
from factledger.application.progress_snapshot import ProgressSnapshot, trim_summary
from factledger.application.run_repository import StoreFailed
from factledger.application.views import CONTROL_FIELDS, control_view
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.ports.payload_vault import PayloadKey, PayloadPart
from tests.support.interceptor import Session, knowledge_args, session, settings_for

HARNESS_ONLY = {
    "returned_count", "truncation", "scope_identity", "normalized_scope", "duplicate_of",
    "consecutive_no_gain", "no_gain_threshold", "violations", "violation_limit",
    "remaining_budget", "raw_response", "raw_bytes", "payload_keys", "content_state",
    "score", "chunk_id", "pending_evaluation", "request_bytes", "projection_bytes",
}  # fmt: skip
OBSERVATION_KEYS = {
    "tool_call_id", "status", "evidence_status", "scope", "truncated", "relevance_level",
    "evidence", "patterns", "events", "matched_count", "columns", "rows", "error_code",
    "reason", "observed_range", "level_counts", "pattern_count", "truncation_reasons",
    "lines_dropped",
} | CONTROL_FIELDS  # fmt: skip


def _keys(value: JsonValue) -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            found |= _keys(item)
    elif isinstance(value, list):
        for item in value:
            found |= _keys(item)
    return found


@pytest.fixture
def run() -> Iterator[Session]:
    with session(settings_for("memory")) as opened:
        yield opened


def _every_outcome(run: Session) -> list[JsonObject]:
    return [
        run.call("c1", knowledge_args("GW-504 pool exhausted")),  # READY, evidence
        run.call("c2", knowledge_args("deadlock")),  # protocol violation, repair
        run.call("c3", knowledge_args("deadlock", ("c1", "GAINED"))),  # READY
        run.call("c4", knowledge_args("DEADLOCK", ("c3", "NO_GAIN"))),  # duplicate scope
        run.call("c5", knowledge_args("qqzx none")),  # READY, no evidence, stop
        run.call("c6", knowledge_args("rate limit")),  # stop required
        run.call("c7", '{"input": {}}'),  # invalid envelope
        run.call("c8", knowledge_args("x"), tool_name="lookup_knowledgе"),  # unknown tool
    ]


def test_no_harness_only_field_ever_reaches_a_model_observation(run: Session) -> None:
    observations = _every_outcome(run)
    statuses = {str(o["status"]) for o in observations}
    assert statuses == {"READY", "REFUSED"}
    for observation in observations:
        assert set(observation) <= OBSERVATION_KEYS, observation
        assert not (_keys(observation) & HARNESS_ONLY), observation


def test_the_control_view_holds_what_the_observation_leaves_out(run: Session) -> None:
    run.call("c1", knowledge_args("GW-504 pool exhausted"))
    log = run.runtime.runs.load(run.run_id)
    assert not isinstance(log, StoreFailed)
    record = run.runtime.canonical.read(run.run_id, "c1")
    assert isinstance(record, CanonicalInvocation)
    view = control_view(record, log).to_json()
    assert isinstance(view["returned_count"], int)
    assert view["scope_identity"] is not None
    assert view["pending_evaluation"] == "c1"
    assert view["no_gain_threshold"] == 3
    assert isinstance(view["remaining_budget"], dict)
    assert view["remaining_budget"]["tool_calls"] == 23
    assert view["content_state"] == "AVAILABLE"


def test_the_snapshot_reads_verified_facts_and_sources_from_the_canonical_store(
    run: Session,
) -> None:
    _every_outcome(run)
    snapshot = run.runtime.snapshots.build(run.run_id)
    assert isinstance(snapshot, ProgressSnapshot)
    assert [fact.tool_call_id for fact in snapshot.observed_facts] == ["c1", "c3", "c5"]
    assert [fact.evidence_status.value for fact in snapshot.observed_facts] == [
        "EVIDENCE_FOUND", "EVIDENCE_FOUND", "NO_EVIDENCE"
    ]  # fmt: skip
    assert all(len(fact.summary) <= 320 for fact in snapshot.observed_facts)
    assert "No runbook matched" in snapshot.observed_facts[2].summary
    identities = [source.identity for source in snapshot.verified_sources]
    assert len(identities) == len(set(identities))
    assert snapshot.verified_sources
    assert snapshot.stop_reason is not None
    assert snapshot.stop_reason.value == "INFORMATION_SATURATED"
    assert any("stopped" in note for note in snapshot.limitations)


def test_the_snapshot_states_expired_and_tampered_content_as_limitations() -> None:
    clock = ManualClock()
    settings = settings_for("memory")
    from factledger.adapters.bootstrap import build_runtime
    from factledger.application.run_service import StartedRun

    runtime = build_runtime(settings, clock=clock)
    started = runtime.run_service.start(budget=runtime.budget, tools=runtime.registry.grants)
    assert isinstance(started, StartedRun)
    handle = runtime.interceptor.handle
    handle(started.run_id, "a", "lookup_knowledge", knowledge_args("GW-504"))
    handle(started.run_id, "b", "lookup_knowledge", knowledge_args("deadlock", ("a", "GAINED")))
    vault = runtime.vault
    assert isinstance(vault, MemoryPayloadVault)
    vault.replace_body(PayloadKey(started.run_id, "b", PayloadPart.RESULT), b'{"evidence": []}')
    snapshot = runtime.snapshots.build(started.run_id)
    assert isinstance(snapshot, ProgressSnapshot)
    assert [fact.tool_call_id for fact in snapshot.observed_facts] == ["a"]
    assert any("b (lookup_knowledge) failed verification" in n for n in snapshot.limitations)
    clock.advance(timedelta(hours=3))
    expired = runtime.snapshots.build(started.run_id)
    assert isinstance(expired, ProgressSnapshot)
    assert expired.observed_facts == ()
    assert not expired.has_facts
    assert any("has expired" in note for note in expired.limitations)
    runtime.close()


def test_a_snapshot_keeps_at_most_the_configured_number_of_facts() -> None:
    from factledger.adapters.config.sections import ProgressSettings

    settings = settings_for("memory").model_copy(
        update={"progress": ProgressSettings(max_observed_facts=2, no_gain_threshold=10)}
    )
    with session(settings) as run:
        for index in range(4):
            run.call(f"c{index}", knowledge_args(f"qqzx{index} vvwkq{index}"))
        snapshot = run.runtime.snapshots.build(run.run_id)
        assert isinstance(snapshot, ProgressSnapshot)
        assert len(snapshot.observed_facts) == 2
        assert any("2 more observed facts" in note for note in snapshot.limitations)


def test_summaries_are_one_line_of_at_most_320_characters() -> None:
    long = "word " * 200
    trimmed = trim_summary(long)
    assert len(trimmed) <= 320
    assert trimmed.endswith("…")
    assert "\n" not in trim_summary("a\nb\tc")
