"""The OpenAI Agents SDK over the harness: ``factledger.integrations.openai_agents``.

``LedgerRun(harness, run_id)`` gives the agent its evidence tools (``tools``: one
``FunctionTool`` per definition, handed the raw argument string and the host's call id, which
the draft cites; the calls of one model response share a step, so a parallel batch is
admitted as one step) and the release as an output guardrail (``guardrail``: it trips on any
outcome but SUCCESS, so an unverified draft is never the run's output). ``run`` runs the agent
and returns the release result; every tool call and the guardrail feed the run's usage to
``record_model_usage``. An agent (or an agent it hands off to) with another tool under an
evidence tool's name is refused before it runs: ``EvidenceToolBypassed``.

    ledger = LedgerRun(harness, run_id)
    agent = Agent(name="sre", model=model, output_type=DraftModel,
                  tools=ledger.tools, output_guardrails=[ledger.guardrail])
    release = await ledger.run(agent, question)
"""

from __future__ import annotations

from typing import Any

from factledger.adapters.integrations.run_binding import EvidenceToolBypassed, RunBinding, require
from factledger.application.async_harness import AsyncHarness
from factledger.application.contracts.draft import DraftModel
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.status import ReleaseOutcome

require("agents", "openai-agents")

from agents import (  # noqa: E402  # after the check that names the extra
    Agent,
    FunctionTool,
    GuardrailFunctionOutput,
    MaxTurnsExceeded,
    OutputGuardrail,
    OutputGuardrailTripwireTriggered,
    RunContextWrapper,
    Runner,
    Tool,
)
from agents.tool_context import ToolContext  # noqa: E402

__all__ = ["DraftModel", "EvidenceToolBypassed", "LedgerRun"]


class LedgerRun:
    """One harness run as an OpenAI Agents SDK agent uses it; see the module docstring."""

    def __init__(self, harness: AsyncHarness, run_id: str) -> None:
        self._binding = RunBinding(harness, run_id)
        self.result: ReleaseResult | None = None
        """The release result, once the guardrail ran."""
        self.tools: list[Tool] = [
            self._tool(definition["function"])  # type: ignore[arg-type]  # OpenAI tool shape
            for definition in self._binding.definitions()
        ]
        self.guardrail: OutputGuardrail[Any] = OutputGuardrail(
            guardrail_function=self._release, name="factledger_release"
        )

    def _tool(self, function: dict[str, Any]) -> FunctionTool:
        name = str(function["name"])

        async def invoke(context: ToolContext[Any], arguments_json: str) -> str:
            usage = context.usage
            await self._binding.meter(usage.requests, usage.input_tokens, usage.output_tokens)
            # the calls of one model response are made after the same number of requests
            step = usage.requests
            return await self._binding.call_text(context.tool_call_id, name, arguments_json, step)

        return FunctionTool(
            name=name,
            description=str(function.get("description", "")),
            params_json_schema=dict(function["parameters"]),
            on_invoke_tool=invoke,
            strict_json_schema=bool(function.get("strict", True)),
        )

    async def _release(
        self, context: RunContextWrapper[Any], agent: Agent[Any], output: object
    ) -> GuardrailFunctionOutput:
        usage = context.usage
        await self._binding.meter(usage.requests, usage.input_tokens, usage.output_tokens)
        result = await self._release_draft(_draft_json(output))
        return GuardrailFunctionOutput(
            output_info=result, tripwire_triggered=result.outcome is not ReleaseOutcome.SUCCESS
        )

    async def _release_draft(self, draft_json: str | None) -> ReleaseResult:
        b = self._binding
        self.result = await b.harness.release(b.run_id, draft_json)
        return self.result

    def _check_tools(self, agent: Agent[Any], seen: set[int]) -> None:
        if id(agent) in seen:
            return
        seen.add(id(agent))
        ours = {id(tool) for tool in self.tools}
        foreign = tuple(
            f"{getattr(tool, 'name', '?')} (a tool of agent {agent.name!r})"
            for tool in agent.tools
            if self._binding.is_evidence_tool(getattr(tool, "name", "")) and id(tool) not in ours
        )
        if foreign:
            raise EvidenceToolBypassed(foreign)
        for handoff in agent.handoffs:
            if isinstance(handoff, Agent):
                self._check_tools(handoff, seen)

    async def run(self, agent: Agent[Any], question: str, **kwargs: Any) -> ReleaseResult:
        """Run the agent (``Runner.run`` with ``kwargs``) and return the release result: the
        guardrail's, or a release without a draft when the agent ran out of turns."""
        self._check_tools(agent, set())
        try:
            await Runner.run(agent, question, **kwargs)
        except OutputGuardrailTripwireTriggered as tripped:
            info = tripped.guardrail_result.output.output_info
            if not isinstance(info, ReleaseResult):
                raise
            return info
        except MaxTurnsExceeded:
            return await self._release_draft(None)
        if self.result is None:
            raise RuntimeError("the agent finished without the factledger_release guardrail")
        return self.result


def _draft_json(output: object) -> str | None:
    """The draft as the text the harness releases (a model's text is passed verbatim)."""
    if output is None or isinstance(output, str):
        return output
    dump = getattr(output, "model_dump_json", None)
    if callable(dump):
        return str(dump())
    raise TypeError("the agent's output is neither a DraftModel nor the draft's JSON text")
