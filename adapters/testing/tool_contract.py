"""The contract suite every evidence tool must pass, built-in or a team's own.

Subclass ``EvidenceToolContract`` in a test module (its name starting with ``Test`` so that
pytest collects it), build the tool in ``make_tool`` and list a few inputs::

    class TestMetricsTool(EvidenceToolContract):
        found_inputs = ({"metric": "http_5xx", "start": "...", "end": "..."},)
        empty_inputs = ({"metric": "http_5xx", "start": "...", "end": "..."},)

        def make_tool(self) -> ToolSpec:
            return MetricsTool(FakeMetrics())

Each test runs the tool through a real harness (a memory store, the tool registered as a
team's tool is), so it checks what the harness will do with it: the exported definition is
valid for OpenAI strict mode and MCP; the envelope refuses malformed arguments before the
backend runs; a result with evidence is READY, shows the model only the declared keys, obeys
its own evidence-status rule, is citable by a draft, summarised and sourced; an empty result
is a scoped negative; a repeated scope is a duplicate; a backend that raises ends as
BACKEND_ERROR without its text; an analysis kind the tool does not support is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import ClassVar

import pytest

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.application.contracts.schemas import openai_strict_problems
from factledger.application.harness import Harness
from factledger.application.observation import Observation, ObservationStatus
from factledger.application.tool_api.spec import ToolSpec
from factledger.application.tool_api.tool import EvidenceTool
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.release.issues import IssueCode
from factledger.domain.status import EvidenceStatus

__all__ = ["EvidenceToolContract"]

_GUARD_CODES = frozenset(IssueCode) - {IssueCode.UNGROUNDED_CLAIM}
_FIXED_KEYS = frozenset({"tool_call_id", "status", "evidence_status", "scope", "truncated"})


class EvidenceToolContract:
    """The contract suite (see the module docstring); subclass it and fill in the blanks."""

    found_inputs: ClassVar[Sequence[JsonObject]] = ()
    """``input`` objects whose result holds evidence (READY, EVIDENCE_FOUND). At least one."""
    empty_inputs: ClassVar[Sequence[JsonObject]] = ()
    """``input`` objects whose result is empty (READY, NO_EVIDENCE), when the tool has some."""
    invalid_inputs: ClassVar[Sequence[JsonObject]] = ()
    """Well-formed ``input`` objects the tool must refuse (INVALID_ENVELOPE) before running."""
    service: ClassVar[str] = "checkout"
    """The service of the runs the suite starts."""
    window: ClassVar[tuple[datetime, datetime]] = (
        datetime(2026, 3, 14, 9, tzinfo=UTC),
        datetime(2026, 3, 14, 10, tzinfo=UTC),
    )
    """The window of the runs the suite starts."""

    def make_tool(self) -> ToolSpec:
        """A fresh instance of the tool under test."""
        raise NotImplementedError("override make_tool() to build the tool under test")

    # -- fixtures -------------------------------------------------------------------------

    @pytest.fixture
    def tool(self) -> Iterator[ToolSpec]:
        made = self.make_tool()
        yield made
        made.close()

    @pytest.fixture
    def harness(self, tool: ToolSpec) -> Iterator[Harness]:
        with build_harness(Settings(store=StoreSettings(kind="memory")), tools=[tool]) as built:
            yield built

    def _run(self, harness: Harness) -> str:
        start, end = self.window
        return harness.start_run(question="contract", service=self.service, start=start, end=end)

    def _call(
        self,
        harness: Harness,
        run_id: str,
        tool_call_id: str,
        tool: ToolSpec,
        request: JsonObject,
        previous: Observation | None = None,
    ) -> Observation:
        evaluation: JsonValue = None
        if previous is not None and previous.evidence_status is EvidenceStatus.EVIDENCE_FOUND:
            evaluation = {"tool_call_id": previous.tool_call_id, "evaluation": "GAINED"}
        arguments = json.dumps({"previous_observation": evaluation, "input": request})
        return harness.observe(run_id, tool_call_id, tool.name, arguments)

    def _found(self, harness: Harness, tool: ToolSpec) -> tuple[str, Observation]:
        assert self.found_inputs, "list at least one input with evidence in found_inputs"
        run_id = self._run(harness)
        observation = self._call(harness, run_id, "found-1", tool, self.found_inputs[0])
        return run_id, observation

    # -- the contract ---------------------------------------------------------------------

    def test_it_is_registered_under_its_name_and_declared_read_only(
        self, harness: Harness, tool: ToolSpec
    ) -> None:
        assert harness.tool_names == (tool.name,)
        assert tool.read_only is True, "an evidence tool must be read-only"
        assert tool.analysis_kinds, "a tool's results must back at least one analysis kind"

    def test_its_definition_is_valid_for_openai_strict_mode_and_mcp(
        self, harness: Harness, tool: ToolSpec
    ) -> None:
        (openai,) = harness.tool_definitions(fmt="openai")
        function = openai["function"]
        assert isinstance(function, dict)
        assert function["name"] == tool.name
        assert function["strict"] is True
        assert openai_strict_problems(function["parameters"]) == []
        (mcp,) = harness.tool_definitions(fmt="mcp")
        schema = mcp["inputSchema"]
        assert isinstance(schema, dict)
        properties = schema.get("properties")
        assert isinstance(properties, dict)
        assert set(properties) == {"previous_observation", "input"}

    def test_every_found_input_is_ready_with_evidence_and_only_the_declared_keys(
        self, harness: Harness, tool: ToolSpec
    ) -> None:
        run_id = self._run(harness)
        previous: Observation | None = None
        allowed = _FIXED_KEYS | set(tool.content_keys)
        if tool.has_relevance:
            allowed |= {"relevance_level"}
        for index, request in enumerate(self.found_inputs, 1):
            observation = self._call(harness, run_id, f"found-{index}", tool, request, previous)
            assert observation.status is ObservationStatus.READY, observation.to_json()
            assert observation.evidence_status is EvidenceStatus.EVIDENCE_FOUND
            assert isinstance(observation.scope, dict), "a result carries its actual scope"
            assert set(observation.to_json()) <= allowed, "the model sees only declared keys"
            content = harness.control_view(run_id, observation.tool_call_id).content
            assert content is not None
            assert tool.evidence_status(content) is EvidenceStatus.EVIDENCE_FOUND
            previous = observation

    def test_every_empty_input_is_a_scoped_negative_observation(
        self, harness: Harness, tool: ToolSpec
    ) -> None:
        if not self.empty_inputs:
            pytest.skip("the tool lists no empty_inputs")
        run_id = self._run(harness)
        for index, request in enumerate(self.empty_inputs, 1):
            observation = self._call(harness, run_id, f"empty-{index}", tool, request)
            assert observation.status is ObservationStatus.READY, observation.to_json()
            assert observation.evidence_status is EvidenceStatus.NO_EVIDENCE
            assert isinstance(observation.scope, dict)

    def test_a_found_result_is_citable_summarised_and_sourced(
        self, harness: Harness, tool: ToolSpec
    ) -> None:
        run_id, _observation = self._found(harness, tool)
        snapshot = harness.progress_snapshot(run_id)
        (fact,) = snapshot.observed_facts
        assert fact.tool_call_id == "found-1"
        assert 0 < len(fact.summary) <= 320
        assert snapshot.verified_sources, "a result with evidence names its sources"
        assert all(source.source_type == tool.name for source in snapshot.verified_sources)
        draft = {
            "conclusion": fact.summary,
            "analyses": [
                {"kind": "SUPPORTING_EVIDENCE", "claim": fact.summary, "tool_call_ids": ["found-1"]}
            ],
        }
        if AnalysisKind.SUPPORTING_EVIDENCE not in tool.analysis_kinds:
            return
        release = harness.release(run_id, json.dumps(draft))
        issues = () if release.fallback is None else release.fallback.validation_issues
        assert not [issue for issue in issues if issue.code in _GUARD_CODES], release.to_json()

    def test_an_unsupported_analysis_kind_is_refused_by_the_guard(
        self, harness: Harness, tool: ToolSpec
    ) -> None:
        unsupported = [kind for kind in AnalysisKind if kind not in tool.analysis_kinds]
        if not unsupported:
            pytest.skip("the tool's results may back every analysis kind")
        run_id, _ = self._found(harness, tool)
        draft = {
            "conclusion": "x",
            "analyses": [
                {"kind": unsupported[0].value, "claim": "x", "tool_call_ids": ["found-1"]}
            ],
        }
        fallback = harness.release(run_id, json.dumps(draft)).fallback
        assert fallback is not None
        codes = {issue.code for issue in fallback.validation_issues}
        assert IssueCode.EVIDENCE_KIND_MISMATCH in codes

    def test_malformed_arguments_are_refused_before_the_backend_runs(
        self, harness: Harness, tool: ToolSpec
    ) -> None:
        assert self.found_inputs, "list at least one input with evidence in found_inputs"
        request = dict(self.found_inputs[0])
        good = json.dumps({"previous_observation": None, "input": request})
        malformed = [
            good + " {}",
            good[:-1] + ', "input": {}}',
            json.dumps({"previous_observation": None, "input": request, "extra": 1}),
            json.dumps({"previous_observation": None, "input": {**request, "extra_field": 1}}),
            json.dumps({"previous_observation": None}),
            json.dumps({"previous_observation": None, "input": [request]}),
            *(
                json.dumps({"previous_observation": None, "input": {**request, key: 12345}})
                for key, value in request.items()
                if isinstance(value, str)
            ),
            *(
                json.dumps({"previous_observation": None, "input": invalid})
                for invalid in self.invalid_inputs
            ),
        ]
        run_id = self._run(harness)
        for index, arguments in enumerate(malformed):
            observation = harness.observe(run_id, f"bad-{index}", tool.name, arguments)
            assert observation.status is ObservationStatus.REFUSED, arguments
            assert observation.error_code == "INVALID_ENVELOPE", arguments
        assert harness.run_summary(run_id).tool_calls == 0, "nothing may reach the backend"

    def test_a_repeated_scope_is_a_duplicate_that_does_not_run_again(
        self, harness: Harness, tool: ToolSpec
    ) -> None:
        run_id, first = self._found(harness, tool)
        again = self._call(harness, run_id, "again-1", tool, self.found_inputs[0], first)
        assert again.status is ObservationStatus.REFUSED
        assert again.error_code == "DUPLICATE_SCOPE"
        assert again.checked_scope is not None
        assert harness.run_summary(run_id).tool_calls == 1

    def test_a_backend_that_raises_ends_as_backend_error_without_its_text(
        self, harness: Harness, tool: ToolSpec, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        if not isinstance(tool, EvidenceTool):
            pytest.skip("only an EvidenceTool's backend call can be replaced")

        def raising(*_: object) -> None:
            raise RuntimeError("secret-7f3a backend detail")

        monkeypatch.setattr(tool, "run", raising)
        _, observation = self._found(harness, tool)
        assert observation.status is ObservationStatus.ERROR
        assert observation.error_code == "BACKEND_ERROR"
        assert "secret-7f3a" not in json.dumps(observation.to_json())

    def test_the_projection_is_deterministic_and_obeys_its_own_rule(self, tool: ToolSpec) -> None:
        if not isinstance(tool, EvidenceTool):
            pytest.skip("only an EvidenceTool exposes its backend and projector")
        for request_json in (*self.found_inputs, *self.empty_inputs):
            request = tool.input_model.model_validate_json(json.dumps(request_json))
            raw = tool.run(request, 30.0).unwrap()
            first = tool.project(request, raw).unwrap()
            assert tool.project(request, raw).unwrap() == first
            assert tool.evidence_status(first.agent_result) is first.evidence_status
            assert isinstance(first.agent_result.get("scope"), dict)
            summary = tool.summarize(first.agent_result, first.evidence_status)
            assert isinstance(summary, str)
            assert summary.strip()
