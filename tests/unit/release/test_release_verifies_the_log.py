"""Release verifies the run's log before deciding: a stored event changed at rest, a forged body
whose digest was rewritten in its event (the hash left alone), a deleted tail or a store that
lost events is never published from. Each gets its own failure code, in the release result and
beside STORE_ERROR in tool observations; nothing is published and the run's log still names
the bad event."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest

from factledger.adapters.bootstrap import build_runtime, harness_from
from factledger.adapters.memory.clock import ManualClock
from factledger.application.harness import HarnessError
from factledger.application.interceptor import Observed
from factledger.application.release.outcomes import AlreadyReleased
from factledger.application.run_service import StartedRun
from factledger.domain.codec import sha256_hex
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.run_events import DiagnosisContext
from factledger.ports.event_store import EventStore
from factledger.ports.payload_vault import PayloadKey, PayloadPart
from factledger.ports.semantic_judge import JudgeSupported
from tests.support.interceptor import knowledge_args, settings_for
from tests.support.release import (
    Scenario,
    ScriptedJudge,
    draft,
    event_types,
    replace_body,
    rewrite_stored_event,
)
from tests.support.replicated_store import ReplicatedEventStore

CLAIM = "card-gateway fails with GW-504 because the acquirer connection pool is exhausted."
CONCLUSION = "The acquirer connection pool of card-gateway is exhausted, causing GW-504."
FORGED_CLAIM = "The DNS resolver of card-gateway returns SERVFAIL for the acquirer host."


def _sequence_of(run: Scenario, event_type: str) -> int:
    return event_types(run).index(event_type) + 1


def _honest(run: Scenario) -> str:
    observation = run.call("c1", "GW-504 pool exhausted")
    assert observation["status"] == "READY"
    return json.dumps(draft(CONCLUSION, ("SUPPORTING_EVIDENCE", CLAIM, ["c1"])))


def _assert_failed_closed(run: Scenario, result: object, code: str) -> None:
    assert isinstance(result, ReleaseResult), result
    as_json = result.to_json()
    assert (as_json["outcome"], as_json["failure_code"]) == ("FAILED", code)
    assert as_json["published_result"] is None
    assert as_json["fallback"] is None


def test_an_event_changed_at_rest_fails_the_release_and_verification_names_it(
    run: Scenario,
) -> None:
    text = _honest(run)
    ready = _sequence_of(run, "INVOCATION_READY")
    rewrite_stored_event(
        run, ready, lambda data: re.sub(rb'"raw_bytes":(\d+)', rb'"raw_bytes":1\1', data)
    )
    result = run.use_cases(judge=ScriptedJudge([JudgeSupported()])).release.release(
        run.run_id, text
    )
    _assert_failed_closed(run, result, "LOG_CORRUPTED")
    assert isinstance(result, ReleaseResult)
    assert result.run_state.value == "FAILED"
    verdict = run.runtime.verifier.verify(run.run_id)
    assert not verdict.ok
    assert (verdict.problems[0].sequence, verdict.problems[0].reason) == (ready, "HASH_MISMATCH")


def test_a_forged_body_with_its_digest_rewritten_in_the_event_is_never_published(
    run: Scenario,
) -> None:
    _honest(run)
    key = PayloadKey(run.run_id, "c1", PayloadPart.RESULT)
    original = run.runtime.vault.get_many([key]).unwrap()[0]
    assert original is not None
    agent_result = json.loads(original)
    agent_result["evidence"][0]["excerpt"] = FORGED_CLAIM
    forged = json.dumps(agent_result, sort_keys=True, separators=(",", ":")).encode()
    replace_body(run, key, forged)
    ready = _sequence_of(run, "INVOCATION_READY")
    old_digest = sha256_hex(original).encode()
    rewrite_stored_event(
        run, ready, lambda data: data.replace(old_digest, sha256_hex(forged).encode())
    )
    run.runtime.runs.forget(run.run_id)  # a worker that reads the run fresh from the store
    lie = json.dumps(draft(FORGED_CLAIM, ("SUPPORTING_EVIDENCE", FORGED_CLAIM, ["c1"])))
    judge = ScriptedJudge([JudgeSupported()])  # a judge the forged body would convince
    result = run.use_cases(judge=judge).release.release(run.run_id, lie)
    _assert_failed_closed(run, result, "LOG_CORRUPTED")
    assert judge.seen == []  # nothing was judged on a log that does not verify
    first = run.runtime.verifier.verify(run.run_id).problems[0]
    assert (first.sequence, first.reason) == (ready, "HASH_MISMATCH")


def test_the_corrupted_release_is_recorded_once(run: Scenario) -> None:
    text = _honest(run)
    rewrite_stored_event(run, 1, lambda data: data.replace(b'"tool_calls":', b'"tool_calls": '))
    first = run.release(text)
    _assert_failed_closed(run, first, "LOG_CORRUPTED")
    again = run.release(text)
    assert isinstance(again, AlreadyReleased)
    assert again.decision.failure_code is not None
    assert again.decision.failure_code.value == "LOG_CORRUPTED"
    assert event_types(run)[-2:] == ["RUN_ENDED", "RELEASE_DECISION"]


def test_an_event_that_no_longer_decodes_is_log_corrupted_in_release_and_observations(
    run: Scenario,
) -> None:
    text = _honest(run)
    ready = _sequence_of(run, "INVOCATION_READY")
    rewrite_stored_event(run, ready, lambda data: data[:-2])
    run.runtime.runs.forget(run.run_id)
    handled = run.runtime.interceptor.handle(
        run.run_id, "c2", "lookup_knowledge", knowledge_args("acquirer", ("c1", "GAINED"))
    )
    assert isinstance(handled, Observed)
    observation = handled.observation
    assert (observation["status"], observation["error_code"], observation["reason"]) == (
        "ERROR",
        "STORE_ERROR",
        "LOG_CORRUPTED",
    )
    _assert_failed_closed(run, run.release(text), "LOG_CORRUPTED")


def test_a_store_outage_is_store_unavailable_in_release_and_observations(run: Scenario) -> None:
    text = _honest(run)
    run.runtime.runs.forget(run.run_id)
    run.faults.set_reads_down(True)
    handled = run.runtime.interceptor.handle(
        run.run_id, "c2", "lookup_knowledge", knowledge_args("acquirer", ("c1", "GAINED"))
    )
    assert isinstance(handled, Observed)
    assert (handled.observation["error_code"], handled.observation["reason"]) == (
        "STORE_ERROR",
        "STORE_UNAVAILABLE",
    )
    _assert_failed_closed(run, run.release(text), "STORE_UNAVAILABLE")
    run.faults.set_reads_down(False)


def test_a_store_that_lost_acknowledged_events_is_store_diverged() -> None:
    clock = ManualClock(datetime(2026, 3, 1, 10, 5, tzinfo=UTC))
    holder: list[ReplicatedEventStore] = []

    def wrap(store: EventStore) -> EventStore:
        holder.append(ReplicatedEventStore(store, clock))
        return holder[0]

    runtime = build_runtime(settings_for("memory"), clock=clock, wrap_store=wrap)
    window = (datetime(2026, 3, 1, 10, 0, tzinfo=UTC), datetime(2026, 3, 1, 11, 0, tzinfo=UTC))
    started = runtime.run_service.start(
        budget=runtime.budget,
        tools=runtime.registry.grants,
        context=DiagnosisContext("card-gateway", *window),
        progress=runtime.progress_policy,
    )
    assert isinstance(started, StartedRun)
    run_id = started.run_id
    runtime.interceptor.handle(run_id, "c1", "lookup_knowledge", knowledge_args("GW-504 pool"))
    holder[0].stop_replication()
    runtime.interceptor.handle(
        run_id, "c2", "lookup_knowledge", knowledge_args("acquirer", ("c1", "GAINED"))
    )
    holder[0].fail_over()  # c2 was acknowledged and is gone
    text = json.dumps(draft(CONCLUSION, ("SUPPORTING_EVIDENCE", CLAIM, ["c1", "c2"])))
    result = runtime.releases.release(run_id, text)
    assert isinstance(result, ReleaseResult)
    assert (result.outcome.value, result.failure_code) == ("FAILED", "STORE_DIVERGED")
    assert result.published_result is None
    runtime.close()


def test_a_recorded_result_whose_body_was_changed_is_never_served(run: Scenario) -> None:
    text = _honest(run)
    run.release(text, judge=ScriptedJudge([JudgeSupported()]))
    harness = harness_from(run.runtime)
    assert harness.released(run.run_id).outcome.value == "SUCCESS"
    forged = json.dumps({"outcome": "SUCCESS", "published_result": {"conclusion": "forged"}})
    replace_body(run, PayloadKey.of_release(run.run_id), forged.encode())
    with pytest.raises(HarnessError) as refused:
        harness.released(run.run_id)
    assert refused.value.code == "LOG_CORRUPTED"
