"""The OpenAI Agents SDK integration under the SDK's own Runner, with a scripted Model."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, Model, ModelResponse, Usage, function_tool, set_tracing_disabled
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from factledger import DraftModel, ReleaseOutcome
from factledger.integrations.openai_agents import EvidenceToolBypassed, LedgerRun
from tests.unit.integrations.conftest import draft, lookup, open_harness, start

set_tracing_disabled(True)


class Scripted(Model):
    def __init__(self, cited: str) -> None:
        text = ResponseOutputText(
            type="output_text",
            text=DraftModel.model_validate(draft(cited)).model_dump_json(),
            annotations=[],
        )
        self.replies: list[list[Any]] = [
            [
                ResponseFunctionToolCall(
                    type="function_call",
                    call_id="call-1",
                    name="lookup_knowledge",
                    arguments=lookup("GW-504 pool"),
                ),
                ResponseFunctionToolCall(
                    type="function_call",
                    call_id="call-2",
                    name="lookup_knowledge",
                    arguments=lookup("acquirer"),
                ),
            ],
            [
                ResponseOutputMessage(
                    type="message", id="m", role="assistant", status="completed", content=[text]
                )
            ],
        ]

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        usage = Usage(requests=1, input_tokens=100, output_tokens=10, total_tokens=110)
        return ModelResponse(output=self.replies.pop(0), usage=usage, response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


def test_a_batch_is_one_step_cited_by_the_hosts_ids_and_metered(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with open_harness(tmp_path) as harness:
            run_id = await start(harness)
            ledger = LedgerRun(harness, run_id)
            agent = Agent(
                name="a",
                model=Scripted("call-1"),
                output_type=DraftModel,
                tools=ledger.tools,
                output_guardrails=[ledger.guardrail],
            )
            release = await ledger.run(agent, "Why?")
            assert release.outcome is ReleaseOutcome.SUCCESS
            for call_id in ("call-1", "call-2"):  # the second would owe call-1's evaluation
                assert (await harness.control_view(run_id, call_id)).to_json()["status"] == "READY"
            summary = await harness.run_summary(run_id)
            assert (summary.model_calls, summary.model_tokens) == (2, 220)

    asyncio.run(scenario())


def test_a_forged_citation_trips_the_guardrail_into_the_fallback(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with open_harness(tmp_path) as harness:
            ledger = LedgerRun(harness, await start(harness))
            agent = Agent(
                name="a",
                model=Scripted("call-404"),
                output_type=DraftModel,
                tools=ledger.tools,
                output_guardrails=[ledger.guardrail],
            )
            release = await ledger.run(agent, "Why?")
            assert release.outcome is ReleaseOutcome.FALLBACK
            assert ledger.result is release

    asyncio.run(scenario())


def test_another_tool_under_an_evidence_tools_name_is_refused_before_the_run(
    tmp_path: Path,
) -> None:
    @function_tool
    def lookup_knowledge(query: str) -> str:
        """A second lookup that would answer without the harness."""
        return "made up"

    async def scenario() -> None:
        async with open_harness(tmp_path) as harness:
            run_id = await start(harness)
            ledger = LedgerRun(harness, run_id)
            agent = Agent(
                name="a",
                model=Scripted("call-1"),
                output_type=DraftModel,
                tools=[lookup_knowledge],
                output_guardrails=[ledger.guardrail],
            )
            with pytest.raises(EvidenceToolBypassed):
                await ledger.run(agent, "Why?")
            assert (await harness.run_summary(run_id)).tool_calls == 0

    asyncio.run(scenario())
