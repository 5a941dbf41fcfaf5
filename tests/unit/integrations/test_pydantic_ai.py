"""The Pydantic AI integration under Pydantic AI's own run loop, with its FunctionModel."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import RequestUsage

from factledger import DraftModel, ObservationStatus, ReleaseOutcome
from factledger.integrations.pydantic_ai import EvidenceToolBypassed, LedgerRun
from tests.unit.integrations.conftest import draft, lookup, open_harness, start

USAGE = RequestUsage(input_tokens=100, output_tokens=10)


def model(drafts: list[str], seen: list[str]) -> FunctionModel:
    """Two lookups in one turn, then the drafts citing each id in turn (retry prompts kept)."""

    def reply(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        for part in messages[-1].parts:  # a retry comes back as the output tool's return
            if isinstance(part, RetryPromptPart | ToolReturnPart) and part.tool_name != (
                "lookup_knowledge"
            ):
                seen.append(str(part.content))
        if len(messages) == 1:
            parts = [
                ToolCallPart("lookup_knowledge", lookup("GW-504 pool"), "call-1"),
                ToolCallPart("lookup_knowledge", lookup("acquirer timeouts"), "call-2"),
            ]
            return ModelResponse(parts=parts, usage=USAGE)
        output = ToolCallPart(info.output_tools[0].name, draft(drafts.pop(0)))
        return ModelResponse(parts=[output], usage=USAGE)

    return FunctionModel(reply)


def test_a_failed_check_is_handed_back_and_the_mended_draft_released_once(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with open_harness(tmp_path) as harness:
            run_id = await start(harness)
            ledger = LedgerRun(harness, run_id)
            seen: list[str] = []
            agent = Agent(
                model(["call-404", "call-1"], seen),
                output_type=DraftModel,
                toolsets=[ledger.toolset],
                retries={"output": 2},
            )
            agent.output_validator(ledger.validate)
            release = await ledger.run(agent, "Why?")
            assert release.outcome is ReleaseOutcome.SUCCESS
            assert len(seen) == 1
            assert "call-404" in seen[0]
            assert "NOT_IN_RUN" in seen[0]
            # the host's ids are the citation ids; the batch of two was admitted as one step
            for call_id in ("call-1", "call-2"):
                view = await harness.control_view(run_id, call_id)
                assert view.to_json()["status"] == "READY"
            summary = await harness.run_summary(run_id)
            assert summary.model_calls == 3  # the lookups, the forged draft, the mended one
            assert summary.model_tokens == 330
            assert (await harness.released(run_id)).to_json() == release.to_json()

    asyncio.run(scenario())


def test_an_evidence_call_that_bypassed_the_toolset_is_a_loud_error(tmp_path: Path) -> None:
    ghost = [
        ModelRequest(parts=[UserPromptPart("Why?")]),
        ModelResponse(parts=[ToolCallPart("lookup_knowledge", lookup("x"), "ghost-1")]),
        ModelRequest(parts=[ToolReturnPart("lookup_knowledge", "made up", "ghost-1")]),
    ]

    async def scenario() -> None:
        async with open_harness(tmp_path) as harness:
            ledger = LedgerRun(harness, await start(harness))
            agent = Agent(model(["ghost-1"], []), output_type=DraftModel, toolsets=[ledger.toolset])
            agent.output_validator(ledger.validate)
            with pytest.raises(EvidenceToolBypassed) as raised:
                await ledger.run(agent, "Go on.", message_history=ghost)
            assert raised.value.tool_call_ids == ("ghost-1",)
            assert ledger.result is None  # nothing was released

    asyncio.run(scenario())


def test_arguments_reach_the_harness_as_the_model_wrote_them(tmp_path: Path) -> None:
    """Text that is no JSON is not parsed away by the framework: the harness answers it."""

    async def scenario() -> None:
        async with open_harness(tmp_path) as harness:
            run_id = await start(harness)
            ledger = LedgerRun(harness, run_id)
            tool = (await ledger.toolset.get_tools(None))["lookup_knowledge"]  # type: ignore[arg-type]
            raw = '{"previous_observation": null, "input": {"query": "GW-504"}, "input": {}}'
            assert tool.args_validator.validate_json(raw) == {"arguments_json": raw}
            observation = await harness.observe(run_id, "c1", "lookup_knowledge", raw)
            assert observation.status is not ObservationStatus.READY  # a duplicate key

    asyncio.run(scenario())
