"""What every framework integration shares: one run of an ``AsyncHarness`` as a host sees it.

``RunBinding`` routes a host's tool call to the harness with the host's own ``tool_call_id``
(the id a draft cites) and the host's turn as the ``step`` (so a parallel batch is admitted as
one step), meters the host's cumulative model usage as deltas against the run's budgets, and
tells an evidence-tool call that reached the model's history without passing through it: that
is ``EvidenceToolBypassed``, raised before anything is released.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import import_module
from types import ModuleType

from factledger.application.async_harness import AsyncHarness
from factledger.application.harness_errors import HarnessError, HarnessErrorCode
from factledger.application.observation import Observation
from factledger.application.run_views import ModelUsage
from factledger.domain.json_types import JsonObject

__all__ = ["EvidenceToolBypassed", "RunBinding", "require"]


class EvidenceToolBypassed(RuntimeError):
    """An evidence tool's call is in the host's history but never passed through the harness
    (a second tool of the same name, a call replayed from elsewhere): its result is not in
    the run's log, so nothing may be released on it. ``tool_call_ids`` names the calls."""

    code = "EVIDENCE_TOOL_BYPASSED"

    def __init__(self, tool_call_ids: tuple[str, ...]) -> None:
        super().__init__(
            f"{self.code}: evidence-tool calls bypassed the harness: {', '.join(tool_call_ids)}"
        )
        self.tool_call_ids = tool_call_ids


def require(module: str, extra: str) -> ModuleType:
    """Import a framework, or say which extra installs it."""
    try:
        return import_module(module)
    except ImportError as missing:
        raise ImportError(
            f"factledger.integrations needs {module!r}: pip install 'factledger[{extra}]'"
        ) from missing


class RunBinding:
    """One run of the harness, as the integrations use it."""

    def __init__(self, harness: AsyncHarness, run_id: str) -> None:
        self.harness = harness
        self.run_id = run_id
        self.routed: set[str] = set()
        """The ids of the tool calls this binding handed to the harness."""
        self._metered = (0, 0, 0)

    def definitions(self) -> list[JsonObject]:
        """The evidence tools' OpenAI definitions (``NO_EVIDENCE_TOOLS`` when there are none)."""
        return self.harness.sync.tool_definitions()

    def is_evidence_tool(self, name: str) -> bool:
        """Whether ``name`` is one of the harness's evidence tools."""
        return name in self.harness.tool_names

    async def call(
        self, tool_call_id: str, tool_name: str, arguments_json: str, step: int | None
    ) -> Observation:
        """One call through the harness, recorded as routed."""
        self.routed.add(tool_call_id)
        return await self.harness.observe(
            self.run_id, tool_call_id, tool_name, arguments_json, step=step
        )

    async def call_text(
        self, tool_call_id: str, tool_name: str, arguments_json: str, step: int | None
    ) -> str:
        """The observation as the JSON text the model reads."""
        observation = await self.call(tool_call_id, tool_name, arguments_json, step)
        return json.dumps(observation.to_json(), ensure_ascii=False)

    async def meter(
        self, requests: int, input_tokens: int, output_tokens: int
    ) -> ModelUsage | None:
        """Record what a host's cumulative usage grew by since the last report (None: nothing)."""
        last = self._metered
        delta = (requests - last[0], input_tokens - last[1], output_tokens - last[2])
        if delta == (0, 0, 0) or min(delta) < 0:
            return None
        self._metered = (requests, input_tokens, output_tokens)
        return await self.harness.record_model_usage(self.run_id, *delta)

    async def require_routed(self, calls: Iterable[tuple[str, str]]) -> None:
        """Raise ``EvidenceToolBypassed`` for any ``(tool_name, tool_call_id)`` of an evidence
        tool that did not pass through the harness (asked of the run's log when this binding
        did not route it: another worker may have)."""
        bypassed: list[str] = []
        for name, call_id in calls:
            if not self.is_evidence_tool(name) or call_id in self.routed:
                continue
            try:
                await self.harness.canonical_view(self.run_id, call_id)
            except HarnessError as error:
                if error.code is not HarnessErrorCode.UNKNOWN_TOOL_CALL:
                    raise
                bypassed.append(call_id)
        if bypassed:
            raise EvidenceToolBypassed(tuple(bypassed))
