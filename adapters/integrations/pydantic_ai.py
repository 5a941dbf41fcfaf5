"""Pydantic AI over the harness: ``factledger.integrations.pydantic_ai``.

``LedgerRun(harness, run_id)`` gives the agent a toolset of the evidence tools (``toolset``:
each call reaches the harness with the arguments exactly as the model wrote them — never
parsed and dumped back — the host's ``tool_call_id``, which the draft cites, and the agent's
run step, so a parallel batch is admitted as one step), the draft as output type
(``DraftModel``) and an output validator (``validate``) that checks the draft as the release
would and raises ``ModelRetry`` with the issues while the run has checks and output retries
left. ``run`` runs the agent and makes the single release of the last draft it produced. The
run's usage is fed to ``record_model_usage`` on every tool call, check and release. An
evidence-tool call in the history that did not pass through the toolset is
``EvidenceToolBypassed``, raised before the release.

    ledger = LedgerRun(harness, run_id)
    agent = Agent(model, output_type=DraftModel, toolsets=[ledger.toolset])
    agent.output_validator(ledger.validate)
    release = await ledger.run(agent, question)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from factledger.adapters.integrations.run_binding import EvidenceToolBypassed, RunBinding, require
from factledger.application.async_harness import AsyncHarness
from factledger.application.contracts.draft import DraftModel
from factledger.application.harness_errors import HarnessError
from factledger.domain.release.fallback import ReleaseResult

require("pydantic_ai", "pydantic-ai")

from pydantic_ai import Agent, ModelRetry, RunContext  # noqa: E402
from pydantic_ai.exceptions import UnexpectedModelBehavior  # noqa: E402
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart  # noqa: E402
from pydantic_ai.tools import ToolDefinition  # noqa: E402
from pydantic_ai.toolsets import AbstractToolset, ToolsetTool  # noqa: E402
from pydantic_ai.usage import RunUsage  # noqa: E402

__all__ = ["DraftModel", "EvidenceToolBypassed", "EvidenceToolset", "LedgerRun"]

_RAW = "arguments_json"
"""The one key the toolset's validator hands on: the model's arguments as text."""


class _RawArguments:
    """An argument 'validator' that keeps the model's text: the harness parses it strictly."""

    def validate_json(self, input: str | bytes | bytearray, **_: Any) -> dict[str, str]:
        text = input if isinstance(input, str) else bytes(input).decode("utf-8", "replace")
        return {_RAW: text}

    def validate_python(self, input: Any, **_: Any) -> dict[str, str]:
        return {_RAW: json.dumps(input, ensure_ascii=False)}


class EvidenceToolset(AbstractToolset[Any]):
    """The harness's evidence tools as a Pydantic AI toolset."""

    def __init__(self, binding: RunBinding) -> None:
        self._binding = binding
        self._definitions = [
            ToolDefinition(
                name=str(function["name"]),
                description=str(function.get("description", "")),
                parameters_json_schema=dict(function["parameters"]),  # type: ignore[arg-type]  # an object schema
                strict=bool(function.get("strict", True)),
            )
            for function in (d["function"] for d in binding.definitions())
            if isinstance(function, dict)
        ]

    @property
    def id(self) -> str | None:
        return "factledger"

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        return {
            definition.name: ToolsetTool(
                toolset=self, tool_def=definition, max_retries=0, args_validator=_RawArguments()
            )
            for definition in self._definitions
        }

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> str:
        await _meter(self._binding, ctx.usage)
        call_id = ctx.tool_call_id or ""
        return await self._binding.call_text(call_id, name, str(tool_args[_RAW]), ctx.run_step)


class LedgerRun:
    """One harness run as a Pydantic AI agent uses it; see the module docstring."""

    def __init__(self, harness: AsyncHarness, run_id: str) -> None:
        self._binding = RunBinding(harness, run_id)
        self.toolset = EvidenceToolset(self._binding)
        self.draft: DraftModel | None = None
        """The last draft the agent produced (the one ``run`` releases)."""
        self.result: ReleaseResult | None = None
        """The release result, once released."""

    async def validate(self, ctx: RunContext[Any], output: DraftModel) -> DraftModel:
        """Check the draft; ``ModelRetry`` with the issues while checks and retries are left."""
        b = self._binding
        self.draft = output
        await _meter(b, ctx.usage)
        await b.require_routed(_tool_calls(ctx.messages))
        try:
            checked = await b.harness.check(b.run_id, output.model_dump_json())
        except HarnessError:  # no check left, or the run ended: the release says what holds
            return output
        if checked.passed or ctx.retry >= ctx.max_retries or not checked.attempts_left:
            return output
        issues = [issue.to_json() for issue in checked.validation_issues]
        raise ModelRetry(
            "The release would not publish this draft. Mend these issues (cite only the "
            f"tool_call_ids of this run's results): {json.dumps(issues, ensure_ascii=False)}"
        )

    async def run(self, agent: Agent[Any, Any], question: str, **kwargs: Any) -> ReleaseResult:
        """Run the agent (``agent.run`` with ``kwargs``) and release its last draft once."""
        b = self._binding
        try:
            ran = await agent.run(question, **kwargs)
        except UnexpectedModelBehavior:  # out of retries: release what the agent last gave
            pass
        else:
            await _meter(b, ran.usage)
            await b.require_routed(_tool_calls(ran.all_messages()))
            if isinstance(ran.output, DraftModel):
                self.draft = ran.output
        draft_json = None if self.draft is None else self.draft.model_dump_json()
        self.result = await b.harness.release(b.run_id, draft_json)
        return self.result


async def _meter(binding: RunBinding, usage: RunUsage) -> None:
    await binding.meter(usage.requests, usage.input_tokens, usage.output_tokens)


def _tool_calls(messages: Iterable[ModelMessage]) -> list[tuple[str, str]]:
    return [
        (part.tool_name, part.tool_call_id)
        for message in messages
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, ToolCallPart)
    ]
