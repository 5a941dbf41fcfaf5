"""Bad input at the interceptor: each gets its stable code, none runs the backend, none leaks."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from attrs import define
from returns.result import Failure, Result, Success

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.application.interceptor import Observed, PassedThrough
from factledger.application.run_service import StartedRun
from factledger.application.tools.knowledge import KnowledgeTool
from factledger.application.tools.registry import DirectToolCallError
from factledger.domain.json_types import JsonObject
from factledger.domain.knowledge.raw_format import RawKnowledgeHit, encode_raw_result
from factledger.domain.knowledge.relevance import RelevanceLevel
from factledger.domain.run_events import DiagnosisContext
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from tests.support.interceptor import knowledge_args


@define
class CountingBackend:
    """A knowledge backend that counts its searches and can fail on demand."""

    searches: int = 0
    raise_text: str | None = None
    fail: bool = False

    def search(self, query: str, limit: int, timeout_seconds: float) -> Result[str, BackendFailure]:
        self.searches += 1
        if self.raise_text is not None:
            raise RuntimeError(self.raise_text)
        if self.fail:
            return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "INDEX_GONE"))
        hit = RawKnowledgeHit(
            document_id="rb-1",
            title="Runbook",
            section="Symptoms",
            chunk_id="rb-1#0",
            text=f"Notes about {query}.",
            score=3.0,
            relevance_level=RelevanceLevel.HIGH,
        )
        return Success(encode_raw_result(query, (hit,)))


@define
class World:
    runtime: Runtime
    backend: CountingBackend
    run_id: str
    passed: list[tuple[str, str]]

    def call(self, tool_name: str, arguments: str, tool_call_id: str = "call-1") -> JsonObject:
        def host(name: str, args: str) -> str:
            self.passed.append((name, args))
            return "host result"

        handled = self.runtime.interceptor.handle(
            self.run_id, tool_call_id, tool_name, arguments, passthrough=host
        )
        assert isinstance(handled, Observed), handled
        return handled.observation


@pytest.fixture
def world() -> Iterator[World]:
    runtime = build_runtime(Settings(store=StoreSettings(kind="memory")))
    backend = CountingBackend()
    runtime.registry.register(KnowledgeTool(backend))
    started = runtime.run_service.start(
        budget=runtime.budget, tools=runtime.registry.grants, context=DiagnosisContext("checkout")
    )
    assert isinstance(started, StartedRun)
    yield World(runtime, backend, started.run_id, [])
    runtime.close()


GOOD = knowledge_args("timeouts")


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ("{", "NOT_JSON"),
        ("", "NOT_JSON"),
        (GOOD + " trailing", "NOT_JSON"),
        (GOOD + GOOD, "NOT_JSON"),
        ('[{"input": {"query": "x"}}]', "NOT_AN_OBJECT"),
        ('"just a string"', "NOT_AN_OBJECT"),
        ('{"input": {"query": "x"}, "extra": 1}', "UNKNOWN_FIELD"),
        ('{"input": {"query": "x", "top_k": 3}}', "UNKNOWN_FIELD"),
        ('{"input": {"query": 42}}', "WRONG_TYPE"),
        ('{"input": {"query": ["x"]}}', "WRONG_TYPE"),
        ('{"input": "query=x"}', "WRONG_TYPE"),
        ('{"previous_observation": null}', "MISSING_FIELD"),
        ('{"input": {"query": "x", "query": "y"}}', "DUPLICATE_KEY"),
        ('{"input": {"query": "x"}, "input": {"query": "y"}}', "DUPLICATE_KEY"),
        ('{"input": {"query": NaN}}', "NOT_JSON"),
        ('{"input": {"query": ""}}', "INVALID_VALUE"),
        (
            '{"previous_observation": {"tool_call_id": "c1", "evaluation": "MAYBE"}, '
            '"input": {"query": "x"}}',
            "INVALID_VALUE",
        ),
        ('{"input": {"query": "' + "x" * 10_000_000 + '"}}', "TOO_LARGE"),
    ],
)
def test_malformed_arguments_are_an_invalid_envelope_and_run_nothing(
    world: World, arguments: str, reason: str
) -> None:
    observation = world.call("lookup_knowledge", arguments)
    assert observation == {
        "tool_call_id": "call-1",
        "status": "REFUSED",
        "error_code": "INVALID_ENVELOPE",
        "reason": reason,
    }
    assert world.backend.searches == 0


@pytest.mark.parametrize(
    "name",
    [
        "lookup_knowledg\u0435",  # Cyrillic e
        "lооkup_knowledge",  # Cyrillic o
        "Lookup_Knowledge",
        "LOOKUP_KNOWLEDGE",
        "lookup-knowledge",
        "lookup_knowledge\u200b",  # zero width space
        "ｌｏｏｋｕｐ＿ｋｎｏｗｌｅｄｇｅ",  # fullwidth
        "lookup_knowledg",
        "lookup_knowledges",
        "lookup_knowlegde",
        "query_log",
        "query-sql",
    ],
)
def test_a_name_confusable_with_an_evidence_tool_is_refused_never_passed_through(
    world: World, name: str
) -> None:
    observation = world.call(name, GOOD)
    assert observation["status"] == "REFUSED"
    assert observation["error_code"] == "UNKNOWN_TOOL"
    assert world.passed == []
    assert world.backend.searches == 0


@pytest.mark.parametrize("name", ["query_sql", "query_logs"])
def test_an_evidence_tool_without_a_configured_backend_is_unknown_and_not_passed(
    world: World, name: str
) -> None:
    observation = world.call(name, '{"input": {}}')
    assert observation == {
        "tool_call_id": "call-1",
        "status": "REFUSED",
        "error_code": "UNKNOWN_TOOL",
    }
    assert world.passed == []
    assert world.runtime.registry.definition(name) is None


def test_a_host_tool_passes_through_untouched(world: World) -> None:
    handled = world.runtime.interceptor.handle(
        world.run_id, "call-1", "get_weather", '{"city": "Oslo"}', passthrough=lambda n, a: (n, a)
    )
    assert handled == PassedThrough(("get_weather", '{"city": "Oslo"}'))


def test_an_unknown_tool_without_a_host_handler_is_refused(world: World) -> None:
    handled = world.runtime.interceptor.handle(world.run_id, "call-1", "get_weather", "{}")
    assert handled == Observed(
        {"tool_call_id": "call-1", "status": "REFUSED", "error_code": "UNKNOWN_TOOL"}
    )


def test_a_definition_called_directly_raises(world: World) -> None:
    definition = world.runtime.registry.definition("lookup_knowledge")
    assert definition is not None
    with pytest.raises(DirectToolCallError, match="interceptor"):
        definition(query="x")
    assert world.backend.searches == 0


def test_a_backend_exception_reaches_the_model_as_a_code_only(world: World) -> None:
    world.backend.raise_text = "Traceback: password=hunter2 at /srv/secret"
    observation = world.call("lookup_knowledge", GOOD)
    assert observation["status"] == "ERROR"
    assert observation["error_code"] == "BACKEND_ERROR"
    assert "hunter2" not in json.dumps(observation)
    assert "Traceback" not in json.dumps(observation)


def test_a_backend_failure_counts_as_no_gain(world: World) -> None:
    world.backend.fail = True
    observation = world.call("lookup_knowledge", GOOD)
    assert observation == {
        "tool_call_id": "call-1",
        "status": "ERROR",
        "error_code": "BACKEND_ERROR",
        "reason": "INDEX_GONE",
    }
    log = world.runtime.runs.load(world.run_id)
    assert not isinstance(log, Exception)
    assert log.progress.consecutive_no_gain == 1  # type: ignore[union-attr]
    assert log.progress.pending is None  # type: ignore[union-attr]


def test_a_call_in_a_foreign_or_unknown_run_is_refused_without_recording(world: World) -> None:
    handled = world.runtime.interceptor.handle("run-nobody", "call-1", "lookup_knowledge", GOOD)
    assert isinstance(handled, Observed)
    assert handled.observation["error_code"] == "RUN_NOT_ACTIVE"
    assert world.runtime.store.read_run("run-nobody").unwrap() == ()
    assert world.backend.searches == 0


def test_a_projector_that_misstates_the_evidence_status_is_rejected(world: World) -> None:
    class LyingTool(KnowledgeTool):
        name = "lookup_knowledge"

        def evidence_status(self, agent_result: JsonObject) -> EvidenceStatus | None:
            return EvidenceStatus.NO_EVIDENCE  # the content says otherwise

    runtime = build_runtime(Settings(store=StoreSettings(kind="memory")))
    runtime.registry.register(LyingTool(CountingBackend()))
    started = runtime.run_service.start(budget=runtime.budget, tools=runtime.registry.grants)
    assert isinstance(started, StartedRun)
    handled = runtime.interceptor.handle(started.run_id, "call-1", "lookup_knowledge", GOOD)
    assert handled == Observed(
        {
            "tool_call_id": "call-1",
            "status": "REFUSED",
            "error_code": "OBSERVATION_CONTRACT_MISMATCH",
        }
    )
    log = runtime.runs.load(started.run_id)
    assert log.progress.pending is None  # type: ignore[union-attr]
    assert "call-1" in log.progress.rejected  # type: ignore[union-attr]
    runtime.close()
