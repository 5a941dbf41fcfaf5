"""The run listing and the run inspection on the facade: outcomes as released, filters, pages
by cursor, and one run's calls, citations and verification (metadata only)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from factledger import AsyncHarness, Harness, HarnessError, ReleaseOutcome
from factledger.adapters.cli.scenario import run_transcript
from factledger.adapters.demo.incident import transcript_path
from factledger.domain.status import FallbackType, RunState
from tests.unit.facade.conftest import demo

Listed = tuple[Harness, dict[str, str]]


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Listed]:
    """A demo harness with one run of each bundled scenario, released."""
    with demo(tmp_path_factory.mktemp("listing")) as harness:
        ids = {
            scenario: run_transcript(harness, transcript_path(scenario)).run_id
            for scenario in ("honest", "hallucinating", "looping")
        }
        yield harness, ids


def honest_calls() -> list[object]:
    """The tool calls of the bundled honest transcript."""
    turns = json.loads(transcript_path("honest").read_text(encoding="utf-8"))["turns"]
    return [turn["tool_call"] for turn in turns if isinstance(turn.get("tool_call"), dict)]


def test_a_fallback_run_lists_its_release_outcome_not_its_run_state(released: Listed) -> None:
    harness, ids = released
    rows = {row.run_id: row for row in harness.list_runs().runs}
    fallback = rows[ids["hallucinating"]]
    assert fallback.state is RunState.SUCCESS
    assert fallback.outcome is ReleaseOutcome.FALLBACK
    assert fallback.fallback_type is FallbackType.EVIDENCE_VALIDATION_FAILED
    success = rows[ids["honest"]]
    assert success.outcome is ReleaseOutcome.SUCCESS
    assert success.fallback_type is None
    assert success.tool_calls == len(honest_calls())
    assert success.service == "card-gateway"
    assert success.start is not None
    assert success.end is not None
    assert success.question_digest is not None
    assert success.question_bytes > 0


def test_the_listing_is_newest_first_and_filters_by_outcome_and_service(released: Listed) -> None:
    harness, ids = released
    listed = [row.run_id for row in harness.list_runs().runs]
    assert listed == [ids["looping"], ids["hallucinating"], ids["honest"]]
    fallbacks = harness.list_runs(outcome=ReleaseOutcome.FALLBACK).runs
    assert {row.run_id for row in fallbacks} == {ids["looping"], ids["hallucinating"]}
    assert [r.run_id for r in harness.list_runs(outcome=ReleaseOutcome.SUCCESS).runs] == [
        ids["honest"]
    ]
    assert harness.list_runs(outcome=ReleaseOutcome.CANCELLED).runs == ()
    assert harness.list_runs(service="no-such-service").runs == ()
    assert len(harness.list_runs(service="card-gateway").runs) == 3


def test_pages_follow_the_cursor_to_the_end(released: Listed) -> None:
    harness, ids = released
    seen: list[str] = []
    cursor = None
    for _ in range(5):
        page = harness.list_runs(limit=1, cursor=cursor)
        seen += [row.run_id for row in page.runs]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [ids["looping"], ids["hallucinating"], ids["honest"]]
    assert cursor is None


@pytest.mark.parametrize("limit", [0, 201])
def test_a_limit_out_of_range_is_invalid_input(released: Listed, limit: int) -> None:
    harness, _ = released
    with pytest.raises(HarnessError) as raised:
        harness.list_runs(limit=limit)
    assert raised.value.code == "INVALID_INPUT"


def test_an_inspection_holds_each_call_scope_and_each_guard_verdict(released: Listed) -> None:
    harness, ids = released
    honest = harness.inspect_run(ids["honest"])
    assert honest.verification.ok
    sql = [c.scope for c in honest.calls if c.tool_name == "query_sql"]
    assert len(sql) == 1
    assert isinstance(sql[0], dict)
    assert str(sql[0]["sql"]).startswith("SELECT")
    assert {c.verdict for c in honest.citations} == {"pass"}
    assert {c.tool_call_id for c in honest.citations} == {c.tool_call_id for c in honest.calls}
    assert honest.decision is not None
    assert honest.decision["outcome"] == "SUCCESS"
    fallback = harness.inspect_run(ids["hallucinating"])
    failed = {(c.tool_call_id, c.verdict, c.reason) for c in fallback.citations}
    assert ("call-7", "fail", "UNKNOWN_TOOL_CALL: NOT_IN_RUN") in failed
    assert next(e.type for e in fallback.timeline) == "RUN_STARTED"
    assert fallback.timeline[-1].sequence == len(fallback.timeline)


def test_an_unknown_run_cannot_be_inspected(released: Listed) -> None:
    harness, _ = released
    with pytest.raises(HarnessError) as raised:
        harness.inspect_run("run-none")
    assert raised.value.code == "UNKNOWN_RUN"


def test_the_async_facade_lists_and_inspects_the_same(tmp_path: Path) -> None:
    harness = demo(tmp_path)
    run_id = run_transcript(harness, transcript_path("honest")).run_id
    expected = (harness.list_runs(outcome=ReleaseOutcome.SUCCESS), harness.inspect_run(run_id))

    async def both() -> tuple[object, object]:
        async with AsyncHarness(harness, workers=2) as facade:
            page = await facade.list_runs(outcome=ReleaseOutcome.SUCCESS)
            inspection = await facade.inspect_run(run_id)
        return page, inspection

    assert asyncio.run(both()) == expected


def test_a_fresh_harness_lists_no_runs(tmp_path: Path) -> None:
    with demo(tmp_path) as harness:
        page = harness.list_runs()
    assert page.runs == ()
    assert page.next_cursor is None
