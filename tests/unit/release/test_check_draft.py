"""``check``: the release's guards without the release — nothing published, the run goes on,
each check one DRAFT_CHECK event of codes and reasons (never the draft's words), at most
``check_attempts`` per run even when checks race; every issue says why, and quotes the claim
(never the evidence) where that helps mend it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import pytest

from factledger.adapters.config.settings import Settings
from factledger.application.check_result import CheckResult
from factledger.application.release.check_service import CheckRefused
from factledger.domain.release.fallback import ReleaseResult
from factledger.ports.semantic_judge import (
    JudgeFinding,
    JudgeSupported,
    JudgeUnavailable,
    JudgeUnsupported,
)
from tests.support.json_path import at
from tests.support.release import Scenario, ScriptedJudge, draft, event_types, scenario

FOUND = "GW-504 pool exhausted"
CLAIM = "card-gateway fails with GW-504 because the acquirer connection pool is exhausted."
CONCLUSION = "The acquirer connection pool of card-gateway is exhausted, causing GW-504."
SECRET_WORDS = "zebra-unicorn-7731"


@pytest.fixture
def run(store_settings: Settings) -> Iterator[Scenario]:
    with scenario(store_settings) as opened:
        opened.call("c1", FOUND)
        yield opened


def _citing(*ids: str, claim: str = CLAIM) -> str:
    return json.dumps(draft(CONCLUSION, ("SUPPORTING_EVIDENCE", claim, ids)))


def _checked(value: CheckResult | CheckRefused) -> CheckResult:
    assert isinstance(value, CheckResult), value
    return value


def test_a_passing_check_publishes_nothing_and_the_run_goes_on(run: Scenario) -> None:
    checked = _checked(run.check(_citing("c1"), judge=ScriptedJudge([JudgeSupported()])))
    assert (checked.passed, checked.attempt, checked.attempts_left) == (True, 1, 2)
    assert checked.to_json()["validation_issues"] == []
    assert event_types(run)[-1] == "DRAFT_CHECK"
    assert "RELEASE_DECISION" not in event_types(run)
    assert run.call("c2", "acquirer timeouts", ("c1", "GAINED"))["status"] == "READY"
    released = run.release(_citing("c1"), judge=ScriptedJudge([JudgeSupported()]))
    assert isinstance(released, ReleaseResult)
    assert released.outcome.value == "SUCCESS"


def test_a_citation_that_does_not_hold_is_named_with_its_reason(run: Scenario) -> None:
    checked = _checked(run.check(_citing("c1", "c9")))
    assert not checked.passed
    assert checked.failure_stage is not None
    assert checked.failure_stage.value == "EVIDENCE_VALIDATION"
    assert at(checked.to_json(), "validation_issues", 0) == {
        "code": "UNKNOWN_TOOL_CALL",
        "tool_call_id": "c9",
        "analysis_index": 0,
        "reason": "NOT_IN_RUN",
        "token": None,
    }


def test_an_unsupported_claim_quotes_the_claim_and_never_the_evidence(run: Scenario) -> None:
    judge = ScriptedJudge(
        [
            JudgeUnsupported(
                (
                    JudgeFinding(0, "UNGROUNDED_NUMBER", "acquirer connection pool"),
                    JudgeFinding(0, "POLARITY_MISMATCH", "text only the evidence holds"),
                    JudgeFinding(-1, "UNGROUNDED_TERMS", "causing GW-504"),
                )
            )
        ]
    )
    checked = _checked(run.check(_citing("c1"), judge=judge))
    assert checked.failure_stage is not None
    assert checked.failure_stage.value == "SEMANTIC_VALIDATION"
    assert [(i.code.value, i.tool_call_id, i.analysis_index, i.reason, i.token)
            for i in checked.validation_issues] == [
        ("UNGROUNDED_CLAIM", "c1", 0, "UNGROUNDED_NUMBER", "acquirer connection pool"),
        ("UNGROUNDED_CLAIM", "c1", 0, "POLARITY_MISMATCH", None),
        ("UNGROUNDED_CLAIM", None, None, "UNGROUNDED_TERMS", "causing GW-504"),
    ]  # fmt: skip


def test_a_release_result_carries_the_same_reasons(run: Scenario) -> None:
    judge = ScriptedJudge([JudgeUnsupported((JudgeFinding(0, "FILTER_MISMATCH", "GW-504"),))])
    released = run.release(_citing("c1"), judge=judge)
    assert isinstance(released, ReleaseResult)
    fallback = released.to_json()["fallback"]
    assert isinstance(fallback, dict)
    assert fallback["validation_issues"] == [
        {
            "code": "UNGROUNDED_CLAIM",
            "tool_call_id": "c1",
            "analysis_index": 0,
            "reason": "FILTER_MISMATCH",
            "token": "GW-504",
        }
    ]


def test_checks_are_metered_and_then_refused(run: Scenario) -> None:
    for attempt in (1, 2, 3):
        assert _checked(run.check(_citing("c9"))).attempt == attempt
    assert run.check(_citing("c1")) == CheckRefused(run.run_id, "CHECK_LIMIT_REACHED")
    assert event_types(run).count("DRAFT_CHECK") == 3
    released = run.release(_citing("c1"))  # the release is not counted against checks
    assert isinstance(released, ReleaseResult)


def test_checks_can_be_turned_off(run: Scenario) -> None:
    refused = run.check(_citing("c1"), check_attempts=0)
    assert refused == CheckRefused(run.run_id, "CHECK_LIMIT_REACHED")


def test_a_check_records_codes_only_never_the_drafts_words(run: Scenario) -> None:
    claim = f"card-gateway fails with GW-504 {SECRET_WORDS}."
    judge = ScriptedJudge([JudgeUnsupported((JudgeFinding(0, "UNGROUNDED_TERMS", SECRET_WORDS),))])
    checked = _checked(run.check(_citing("c1", claim=claim), judge=judge))
    assert checked.validation_issues[0].token == SECRET_WORDS  # the agent sees its own words back
    stored = run.runtime.store.read_run(run.run_id).unwrap()
    assert all(SECRET_WORDS.encode() not in item.data for item in stored)
    assert all(b"card-gateway fails" not in item.data for item in stored)


def test_a_model_judge_is_metered_and_its_outage_recorded(run: Scenario) -> None:
    judge = ScriptedJudge([JudgeUnavailable("HTTP_503")], uses_model=True)
    checked = _checked(run.check(_citing("c1"), judge=judge))
    assert not checked.passed
    assert checked.semantic_verdict is not None
    assert checked.semantic_verdict.value == "UNAVAILABLE"
    types = event_types(run)
    assert types.count("MODEL_CALL_RESERVED") == 2  # two judge attempts
    assert types.count("MODEL_CALL_FAILED") == 2
    assert "SEMANTIC_ATTEMPT" not in types  # a check records only its DRAFT_CHECK


def test_a_protocol_violated_run_never_passes_a_check(run: Scenario) -> None:
    run.call("v1", "deadlock")  # c1 pending and not evaluated
    run.call("v2", "deadlock", ("ghost", "GAINED"))
    judge = ScriptedJudge([JudgeSupported()])
    checked = _checked(run.check(_citing("c1"), judge=judge))
    assert not checked.passed
    assert [issue.code.value for issue in checked.validation_issues] == ["PROTOCOL_VIOLATED"]
    assert judge.seen == []


def test_a_malformed_draft_is_checked_as_malformed(run: Scenario) -> None:
    checked = _checked(run.check('{"conclusion": "x"'))
    assert [(i.code.value, i.reason) for i in checked.validation_issues] == [
        ("MALFORMED_DRAFT", "NOT_JSON")
    ]


def test_a_check_after_the_release_or_the_end_is_refused(run: Scenario) -> None:
    run.release(_citing("c1"))
    assert run.check(_citing("c1")) == CheckRefused(run.run_id, "ALREADY_RELEASED")


def test_a_cancelled_run_is_not_checked(run: Scenario) -> None:
    run.runtime.run_service.cancel(run.run_id)
    assert run.check(_citing("c1")) == CheckRefused(run.run_id, "RUN_NOT_ACTIVE")


def test_racing_checks_never_exceed_the_limit(store_settings: Settings) -> None:
    with scenario(store_settings) as run:
        run.call("c1", FOUND)
        service = run.use_cases(check_attempts=3).check
        results: list[CheckResult | CheckRefused] = []
        lock = threading.Lock()

        def one() -> None:
            checked = service.check(run.run_id, _citing("c1"))
            with lock:
                results.append(checked)

        threads = [threading.Thread(target=one) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        passed = sorted(r.attempt for r in results if isinstance(r, CheckResult))
        refused = sorted(r.code for r in results if isinstance(r, CheckRefused))
        assert (passed, refused) == ([1, 2, 3], ["CHECK_LIMIT_REACHED"] * 5)
        assert event_types(run).count("DRAFT_CHECK") == 3
