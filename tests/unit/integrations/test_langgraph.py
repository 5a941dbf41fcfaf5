"""The LangGraph integration in a compiled graph, under LangGraph's own async execution."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.graph import START, StateGraph

from factledger import ReleaseOutcome
from factledger.integrations.langgraph import EvidenceToolBypassed, LedgerRun, LedgerState
from tests.unit.integrations.conftest import draft, open_harness, start

USAGE = {"input_tokens": 100, "output_tokens": 10, "total_tokens": 110}


def batch() -> AIMessage:
    calls = [
        {
            "id": call_id,
            "name": "lookup_knowledge",
            "args": {"previous_observation": None, "input": {"query": query}},
        }
        for call_id, query in (("call-1", "GW-504 pool"), ("call-2", "acquirer timeouts"))
    ]
    return AIMessage(content="", tool_calls=calls, usage_metadata=USAGE)


def graph(ledger: LedgerRun, replies: list[AIMessage]) -> StateGraph[LedgerState]:
    async def agent(state: LedgerState) -> dict[str, list[BaseMessage]]:
        return {"messages": [replies.pop(0)]}

    built = StateGraph(LedgerState)
    built.add_node("agent", agent)
    built.add_edge(START, "agent")
    ledger.add_to(built, "agent")
    return built


def test_a_batch_is_one_step_cited_by_the_hosts_ids_and_metered(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with open_harness(tmp_path) as harness:
            run_id = await start(harness)
            ledger = LedgerRun(harness, run_id)
            final_draft = AIMessage(content=json.dumps(draft("call-1")), usage_metadata=USAGE)
            compiled = graph(ledger, [batch(), final_draft]).compile()
            final = await compiled.ainvoke({"messages": [HumanMessage("Why?")]})
            assert final["release"]["outcome"] == "SUCCESS"
            assert ledger.result is not None
            assert ledger.result.outcome is ReleaseOutcome.SUCCESS
            for call_id in ("call-1", "call-2"):
                assert (await harness.control_view(run_id, call_id)).to_json()["status"] == "READY"
            summary = await harness.run_summary(run_id)
            assert (summary.model_calls, summary.model_tokens) == (2, 220)

    asyncio.run(scenario())


def test_an_evidence_call_no_tool_node_answered_is_a_loud_error(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with open_harness(tmp_path) as harness:
            run_id = await start(harness)
            ledger = LedgerRun(harness, run_id)
            state: LedgerState = {
                "messages": [
                    HumanMessage("Why?"),
                    batch(),
                    AIMessage(content=json.dumps(draft("call-1"))),
                ]
            }
            with pytest.raises(EvidenceToolBypassed) as raised:
                await ledger.release_node(state)
            assert raised.value.tool_call_ids == ("call-1", "call-2")
            assert ledger.result is None

    asyncio.run(scenario())
