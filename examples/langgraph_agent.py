"""A LangGraph graph diagnosing the incident, offline, through the harness.

    python examples/langgraph_agent.py --scenario honest|forged

The model is a scripted LangChain chat model (no network, no key): a parallel batch of two
lookups, then the draft as its text. The graph is agent → tools → agent → release, with the
integration's tool node, release node and router (``ledger.add_to``). The release result is
printed as JSON on the last line. Lines marked ``# glue`` are all the wiring factledger needs.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from incident import (
    LOOKUPS,
    QUESTION,
    draft,
    open_harness,
    scenario,
    start,
    temporary_folder,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.graph import START, StateGraph

from factledger.integrations.langgraph import LedgerRun, LedgerState


class ScriptedChatModel(BaseChatModel):
    """Answers with the next scripted message; ``bind_tools`` keeps the script."""

    replies: list[AIMessage]

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.replies.pop(0))])


def replies(which: str) -> list[AIMessage]:
    usage = {"input_tokens": 800, "output_tokens": 60, "total_tokens": 860}
    calls = [
        {
            "id": call_id,
            "name": "lookup_knowledge",
            "args": {"previous_observation": None, "input": {"query": query}},
        }
        for call_id, query in LOOKUPS
    ]
    return [
        AIMessage(content="", tool_calls=calls, usage_metadata=usage),
        AIMessage(content=draft(which), usage_metadata=usage),
    ]


async def main(which: str, folder: Path) -> None:
    async with open_harness(folder) as harness:
        run_id = await start(harness)
        ledger = LedgerRun(harness, run_id)  # glue
        chat_model = ScriptedChatModel(replies=replies(which))
        model = chat_model.bind_tools(ledger.tools)  # glue

        async def agent(state: LedgerState) -> dict[str, list[BaseMessage]]:
            return {"messages": [await model.ainvoke(state["messages"])]}

        graph = StateGraph(LedgerState)  # glue
        graph.add_node("agent", agent)
        graph.add_edge(START, "agent")
        ledger.add_to(graph, "agent")  # glue
        state = LedgerState(messages=[HumanMessage(QUESTION)])
        final = await graph.compile().ainvoke(state)
        print(json.dumps(final["release"], ensure_ascii=False))  # ReleaseResult.to_json()


if __name__ == "__main__":
    with temporary_folder() as folder:
        asyncio.run(main(scenario(), Path(folder)))
