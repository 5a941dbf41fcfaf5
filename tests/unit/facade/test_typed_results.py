"""Typed results: one definition each, its JSON and its HTTP schema derived from its fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from attrs import frozen

from factledger import (
    Analysis,
    AnalysisKind,
    FailureCode,
    FailureStage,
    FallbackType,
    IssueCode,
    Observation,
    ObservedFact,
    PublishedResult,
    ReleaseOutcome,
    ReleaseResult,
    RunState,
    SafeFallback,
    Source,
    StopReason,
    ValidationIssue,
)
from factledger.adapters.cli.scenario import run_transcript
from factledger.adapters.demo.incident import transcript_path
from factledger.adapters.http.models import Observation as ObservationModel
from factledger.adapters.http.models import ReleaseResultModel
from factledger.adapters.http.shapes import response_model
from factledger.application.canonical_view import CanonicalInvocation
from factledger.application.observation import _FIXED
from factledger.domain.json_shape import ShapeError
from factledger.domain.status import EvidenceStatus
from tests.unit.facade.conftest import LOOKUP, demo, start

SOURCE = Source("lookup_knowledge", "gw-504.md", {"section": "Symptoms", "tags": [1, None]})
FACT = ObservedFact("c1", "lookup_knowledge", EvidenceStatus.EVIDENCE_FOUND, "Runbook says so.")
RESULTS = [
    ReleaseResult(
        "r1", ReleaseOutcome.SUCCESS, RunState.SUCCESS, None,
        PublishedResult("c", (Analysis(AnalysisKind.SUPPORTING_EVIDENCE, "x", ("c1",)),),
                        (SOURCE,)),
        None,
    ),
    ReleaseResult(
        "r2", ReleaseOutcome.FALLBACK, RunState.SUCCESS, None, None,
        SafeFallback(FallbackType.EVIDENCE_VALIDATION_FAILED, (SOURCE,), (FACT,), ("l",), ("n",),
                     FailureStage.EVIDENCE_VALIDATION,
                     (ValidationIssue(IssueCode.UNKNOWN_TOOL_CALL, "c9", 0),),
                     StopReason.INFORMATION_SATURATED),
    ),
    ReleaseResult("r3", ReleaseOutcome.FAILED, RunState.BUDGET_EXHAUSTED,
                  FailureCode.BUDGET_EXHAUSTED, None, None),
]  # fmt: skip


@pytest.mark.parametrize("result", RESULTS)
def test_a_release_result_reads_back_from_its_json(result: ReleaseResult) -> None:
    encoded = json.loads(json.dumps(result.to_json()))
    assert ReleaseResult.from_json(encoded) == result
    assert ReleaseResultModel.model_validate_json(json.dumps(encoded)).model_dump(mode="json") == (
        encoded
    )


def test_a_fallback_always_says_its_conclusion_is_null() -> None:
    fallback = RESULTS[1].to_json()["fallback"]
    assert isinstance(fallback, dict)
    assert "conclusion" in fallback
    assert fallback["conclusion"] is None


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda j: j.update(extra=1), "unknown key 'extra'"),
        (lambda j: j.pop("run_state"), "missing key 'run_state'"),
        (lambda j: j.update(outcome="MAYBE"), "ReleaseResult.outcome"),
        (
            lambda j: j["published_result"]["analyses"][0].update(tool_call_ids="c1"),
            "tool_call_ids",
        ),
    ],
)
def test_a_json_that_is_not_a_release_result_is_refused_naming_where(change, where) -> None:  # type: ignore[no-untyped-def]  # parametrised callables
    encoded = RESULTS[0].to_json()
    change(encoded)
    with pytest.raises(ShapeError, match=where.replace("[", r"\[")):
        ReleaseResult.from_json(encoded)


def test_the_http_schema_is_derived_from_the_fields_and_their_docstrings() -> None:
    schema = ReleaseResultModel.model_json_schema()
    assert list(schema["properties"]) == [
        "run_id", "outcome", "run_state", "failure_code", "published_result", "fallback",
    ]  # fmt: skip
    assert schema["properties"]["run_id"]["description"] == "The run."
    assert set(schema["required"]) == set(schema["properties"])


def test_a_field_added_to_a_record_is_in_its_json_and_its_schema_with_one_edit() -> None:
    @frozen
    class Extended:
        """A record with a new field."""

        run_id: str
        """The run."""
        shiny_new_field: tuple[int, ...]
        """Added in one place."""

    model = response_model(Extended)
    assert "shiny_new_field" in model.model_json_schema()["properties"]
    assert model.model_validate({"run_id": "r", "shiny_new_field": [1, 2]}).model_dump() == {
        "run_id": "r",
        "shiny_new_field": [1, 2],
    }


def test_every_observation_the_demo_produces_reads_back_exactly(tmp_path: Path) -> None:
    with demo(tmp_path) as harness:
        for scenario in ("honest", "hallucinating", "looping"):
            for _, observation in run_transcript(harness, transcript_path(scenario)).observations:
                encoded = observation.to_json()
                assert Observation.from_json(encoded).to_json() == encoded
                ObservationModel.model_validate_json(json.dumps(encoded))


def test_the_http_observation_model_declares_exactly_the_fixed_keys() -> None:
    assert set(ObservationModel.model_fields) == set(_FIXED)


def test_the_canonical_view_never_carries_a_body(tmp_path: Path) -> None:
    with demo(tmp_path) as harness:
        run_id = start(harness)
        harness.observe(run_id, "c1", "lookup_knowledge", LOOKUP)
        view = harness.canonical_view(run_id, "c1")
        record = harness.parts.canonical.read(run_id, "c1")
        assert isinstance(record, CanonicalInvocation)
        assert record.agent_result is not None  # the record has the bodies...
        encoded = view.to_json()
        assert {"request", "raw_response", "agent_result"}.isdisjoint(encoded)  # ...no view does
        assert encoded == record.to_json()
        assert encoded["status"] == "READY"
