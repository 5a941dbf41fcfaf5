"""An OpenAI Agents SDK agent diagnosing the incident, offline, through the harness.

    python examples/openai_agents_agent.py --scenario honest|forged

The model is a scripted ``agents.Model`` (no network, no key): a parallel batch of two
lookups, then the draft. The release result is printed as JSON on the last line. Lines
marked ``# glue`` are all the wiring factledger needs.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from agents import Agent, Model, ModelResponse, Usage, set_tracing_disabled
from agents.items import TResponseStreamEvent
from incident import (
    LOOKUPS,
    QUESTION,
    draft,
    lookup_arguments,
    open_harness,
    report,
    scenario,
    start,
    temporary_folder,
)
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from factledger import DraftModel
from factledger.integrations.openai_agents import LedgerRun


class ScriptedModel(Model):
    """Answers each request with the next scripted reply."""

    def __init__(self, replies: list[list[Any]]) -> None:
        self._replies = replies

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        output = self._replies.pop(0)
        usage = Usage(requests=1, input_tokens=800, output_tokens=60, total_tokens=860)
        return ModelResponse(output=output, usage=usage, response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[TResponseStreamEvent]:
        raise NotImplementedError("the scripted model does not stream")


def replies(which: str) -> list[list[Any]]:
    calls = [
        ResponseFunctionToolCall(
            type="function_call",
            id=f"fc-{call_id}",
            call_id=call_id,
            name="lookup_knowledge",
            arguments=lookup_arguments(query),
        )
        for call_id, query in LOOKUPS
    ]
    text = ResponseOutputText(type="output_text", text=draft(which), annotations=[])
    message = ResponseOutputMessage(
        type="message", id="msg-1", role="assistant", status="completed", content=[text]
    )
    return [calls, [message]]


async def main(which: str, folder: Path) -> None:
    async with open_harness(folder) as harness:
        run_id = await start(harness)
        ledger = LedgerRun(harness, run_id)  # glue
        agent = Agent(
            name="diagnosis",
            model=ScriptedModel(replies(which)),
            output_type=DraftModel,  # glue
            tools=ledger.tools,  # glue
            output_guardrails=[ledger.guardrail],  # glue
        )
        release = await ledger.run(agent, QUESTION)  # glue
        report(release)


if __name__ == "__main__":
    set_tracing_disabled(True)
    with temporary_folder() as folder:
        asyncio.run(main(scenario(), Path(folder)))
