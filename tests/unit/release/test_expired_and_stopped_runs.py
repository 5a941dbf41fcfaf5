"""Expired evidence and stopped collection, on the memory store and on Redis.

Expired evidence is a fallback with a limitation naming the call while other facts remain, and
FAILED with EVIDENCE_EXPIRED when none remain — never INVALID_INPUT. A run stopped with
PROGRESS_PROTOCOL_VIOLATED never ends in SUCCESS, however well its draft's citations hold; a
draft after INFORMATION_SATURATED still goes through both guards."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.run_log import RunLog
from factledger.domain.status import FailureCode
from factledger.ports.semantic_judge import JudgeFinding, JudgeSupported, JudgeUnsupported
from tests.support.release import Scenario, ScriptedJudge, draft, event_types

FOUND = "GW-504 pool exhausted"
OTHER = "acquirer connection pool"
CLAIM = "card-gateway fails with GW-504 because the acquirer connection pool is exhausted."
CONCLUSION = "The acquirer connection pool of card-gateway is exhausted, causing GW-504."


def _citing(*ids: str) -> str:
    return json.dumps(draft(CONCLUSION, ("SUPPORTING_EVIDENCE", CLAIM, ids)))


def _result(value: object) -> ReleaseResult:
    assert isinstance(value, ReleaseResult), value
    return value


# -- expired evidence -----------------------------------------------------------------------


def test_a_draft_whose_every_citation_expired_falls_back_on_the_facts_that_remain(
    run: Scenario,
) -> None:
    run.call("c1", FOUND)
    run.clock.advance(timedelta(minutes=40))
    run.call("c2", OTHER, ("c1", "GAINED"))
    run.clock.advance(timedelta(minutes=25))  # c1's content expired (TTL 1 h), c2's has not
    result = _result(run.release(_citing("c1")))
    assert (result.outcome.value, result.failure_code) == ("FALLBACK", None)
    fallback = result.fallback
    assert fallback is not None
    assert fallback.type.value == "EVIDENCE_VALIDATION_FAILED"
    issue = fallback.validation_issues[0]
    assert (issue.code.value, issue.tool_call_id, issue.reason) == (
        "EVIDENCE_EXPIRED",
        "c1",
        "CONTENT_EXPIRED",
    )
    assert [fact.tool_call_id for fact in fallback.observed_facts] == ["c2"]
    assert any("c1" in note and "expired" in note for note in fallback.limitations)


@pytest.mark.parametrize("with_draft", [True, False], ids=["draft", "no draft"])
def test_when_every_fact_expired_the_release_fails_with_evidence_expired(
    run: Scenario, with_draft: bool
) -> None:
    run.call("c1", FOUND)
    run.call("c2", OTHER, ("c1", "GAINED"))
    run.clock.advance(timedelta(hours=1, seconds=1))
    result = _result(run.release(_citing("c1", "c2") if with_draft else None))
    as_json = result.to_json()
    assert (as_json["outcome"], as_json["failure_code"]) == ("FAILED", "EVIDENCE_EXPIRED")
    assert as_json["published_result"] is None
    log = run.runtime.runs.load(run.run_id)
    assert isinstance(log, RunLog)
    assert log.released is not None
    assert log.released.failure_code is FailureCode.EVIDENCE_EXPIRED


# -- stopped collection ---------------------------------------------------------------------


def _violate(run: Scenario) -> None:
    """Two evaluations that name no pending result: collection stops, protocol violated."""
    run.call("v1", "deadlock", ("ghost-1", "GAINED"))
    stopped = run.call("v2", "deadlock", ("ghost-2", "GAINED"))
    assert stopped["stop_reason"] == "PROGRESS_PROTOCOL_VIOLATED"


def test_a_protocol_violated_run_never_publishes_a_draft_whose_citations_hold(
    run: Scenario,
) -> None:
    run.call("c1", FOUND)
    run.call("v1", "deadlock")  # c1 is pending: not evaluated
    stopped = run.call("v2", "deadlock", ("ghost", "GAINED"))
    assert stopped["stop_reason"] == "PROGRESS_PROTOCOL_VIOLATED"
    judge = ScriptedJudge([JudgeSupported()])
    result = _result(run.release(_citing("c1"), judge=judge))
    assert result.outcome.value == "FALLBACK"
    assert result.published_result is None
    fallback = result.fallback
    assert fallback is not None
    assert (fallback.type.value, fallback.failure_stage.value) == (
        "INSUFFICIENT_EVIDENCE",
        "DIAGNOSIS_COLLECTION",
    )
    assert fallback.stop_reason is not None
    assert fallback.stop_reason.value == "PROGRESS_PROTOCOL_VIOLATED"
    assert [issue.code.value for issue in fallback.validation_issues] == ["PROTOCOL_VIOLATED"]
    assert judge.seen == []  # nothing to judge: it could not be published anyway
    assert "EVIDENCE_GUARD_INITIAL" in event_types(run)


def test_a_protocol_violated_run_without_facts_fails(run: Scenario) -> None:
    _violate(run)
    result = _result(run.release(_citing("v1"), judge=ScriptedJudge([JudgeSupported()])))
    as_json = result.to_json()
    assert (as_json["outcome"], as_json["failure_code"]) == ("FAILED", "NO_VERIFIED_EVIDENCE")
    assert as_json["published_result"] is None


def _saturate(run: Scenario) -> None:
    run.call("c1", FOUND)
    run.call("n1", "zzqx qqvv", ("c1", "GAINED"))
    run.call("n2", "zzqx wwkk")
    stopped = run.call("n3", "zzqx yyjj")
    assert stopped["stop_reason"] == "INFORMATION_SATURATED"


def test_a_draft_after_saturation_still_goes_through_both_guards(run: Scenario) -> None:
    _saturate(run)
    judge = ScriptedJudge([JudgeSupported()])
    result = _result(run.release(_citing("c1"), judge=judge))
    assert result.outcome.value == "SUCCESS"
    assert len(judge.seen) == 1
    assert "EVIDENCE_GUARD_INITIAL" in event_types(run)


def test_a_draft_after_saturation_that_its_evidence_does_not_support_falls_back(
    run: Scenario,
) -> None:
    _saturate(run)
    judge = ScriptedJudge([JudgeUnsupported((JudgeFinding(0, "POLARITY_MISMATCH", "not"),))])
    result = _result(run.release(_citing("c1"), judge=judge))
    assert result.fallback is not None
    assert result.fallback.type.value == "SEMANTIC_UNSUPPORTED"
    assert result.fallback.stop_reason is not None
    assert result.fallback.stop_reason.value == "INFORMATION_SATURATED"


def test_a_draft_after_saturation_citing_an_invented_call_falls_back(run: Scenario) -> None:
    _saturate(run)
    result = _result(run.release(_citing("c-invented")))
    assert result.fallback is not None
    assert result.fallback.type.value == "EVIDENCE_VALIDATION_FAILED"
    issue = result.fallback.validation_issues[0]
    assert (issue.code.value, issue.reason) == ("UNKNOWN_TOOL_CALL", "NOT_IN_RUN")
