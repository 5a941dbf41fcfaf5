"""A runtime with the knowledge tool over the bundled runbooks, on the memory or Redis store."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.resources import files
from pathlib import Path

from attrs import define

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import KnowledgeSettings, StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.application.interceptor import Observed, PassThroughHandler
from factledger.application.run_service import StartedRun
from factledger.domain.budget import RunBudget
from factledger.domain.json_types import JsonObject
from factledger.domain.run_events import DiagnosisContext

RUNBOOKS = Path(str(files("factledger.adapters.demo").joinpath("knowledge")))


def knowledge_args(query: str, previous: tuple[str, str] | None = None) -> str:
    """The arguments of a ``lookup_knowledge`` call."""
    envelope: JsonObject = {
        "previous_observation": None
        if previous is None
        else {"tool_call_id": previous[0], "evaluation": previous[1]},
        "input": {"query": query},
    }
    return json.dumps(envelope)


@define
class Session:
    """One run driven through the interceptor."""

    runtime: Runtime
    run_id: str

    def call(
        self,
        tool_call_id: str,
        arguments: str,
        tool_name: str = "lookup_knowledge",
        passthrough: PassThroughHandler | None = None,
    ) -> JsonObject:
        handled = self.runtime.interceptor.handle(
            self.run_id, tool_call_id, tool_name, arguments, step=1, passthrough=passthrough
        )
        assert isinstance(handled, Observed), handled
        return handled.observation

    def event_types(self) -> list[str]:
        stored = self.runtime.store.read_run(self.run_id).unwrap()
        codec = self.runtime.runs.codec
        return [codec.decode(item.data, item.hash).unwrap().event.TYPE for item in stored]


def settings_for(kind: str, redis_url: str | None = None, prefix: str = "fl") -> Settings:
    store = (
        StoreSettings(kind="redis", url=redis_url or "", key_prefix=prefix)
        if kind == "redis"
        else StoreSettings(kind="memory")
    )
    return Settings(store=store, knowledge=KnowledgeSettings(dir=str(RUNBOOKS)))


@contextmanager
def session(settings: Settings, budget: RunBudget | None = None) -> Iterator[Session]:
    runtime = build_runtime(settings)
    try:
        started = runtime.run_service.start(
            budget=budget or runtime.budget,
            tools=runtime.registry.grants,
            context=DiagnosisContext("card-gateway"),
            progress=runtime.progress_policy,
        )
        assert isinstance(started, StartedRun), started
        yield Session(runtime, started.run_id)
    finally:
        runtime.close()
