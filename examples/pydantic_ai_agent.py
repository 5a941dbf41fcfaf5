"""A Pydantic AI agent diagnosing the incident, offline, through the harness.

    python examples/pydantic_ai_agent.py --scenario honest|forged

The model is Pydantic AI's ``FunctionModel`` with a script (no network, no key): a parallel
batch of two lookups, then the draft through the output tool. A draft that fails the check is
handed back with the issues; the scripted model then repeats it (the forged one stays
forged), and the single release says what holds. The release result is printed as JSON on
the last line. Lines marked ``# glue`` are all the wiring factledger needs.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

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
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import RequestUsage

from factledger import DraftModel
from factledger.integrations.pydantic_ai import LedgerRun


def scripted(which: str) -> FunctionModel:
    def reply(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        usage = RequestUsage(input_tokens=800, output_tokens=60)
        if len(messages) == 1:  # the question: look it up, two lookups in one turn
            calls = [
                ToolCallPart("lookup_knowledge", lookup_arguments(query), call_id)
                for call_id, query in LOOKUPS
            ]
            return ModelResponse(parts=calls, usage=usage)
        output = info.output_tools[0].name
        return ModelResponse(parts=[ToolCallPart(output, json.loads(draft(which)))], usage=usage)

    return FunctionModel(reply)


async def main(which: str, folder: Path) -> None:
    async with open_harness(folder) as harness:
        run_id = await start(harness)
        ledger = LedgerRun(harness, run_id)  # glue
        model = scripted(which)
        agent = Agent(model, output_type=DraftModel, toolsets=[ledger.toolset])  # glue
        agent.output_validator(ledger.validate)  # glue
        release = await ledger.run(agent, QUESTION)  # glue
        report(release)


if __name__ == "__main__":
    with temporary_folder() as folder:
        asyncio.run(main(scenario(), Path(folder)))
