"""LangGraph over the harness: ``factledger.integrations.langgraph``.

``LedgerRun(harness, run_id)`` gives a graph over ``LedgerState`` (messages, and the release
result once released) two nodes and a router. ``tool_node`` answers every evidence-tool call
of the last AI message through the harness at once — the host's ``tool_call_id``, which the
draft cites, and the message's turn as the step, so the parallel batch is admitted as one step
— with one ``ToolMessage`` each (arguments the model wrote but that did not parse reach the
harness as written, which answers them with its repair request). ``release_node`` releases the
last AI message's text as the draft (none: the agent stopped without one) into
``state["release"]``. ``route`` sends a message with tool calls to ``"tools"``, else to
``"release"``. Usage on the AI messages (``usage_metadata``) is fed to ``record_model_usage``
by both nodes. An evidence-tool call in the messages that no tool node of this run answered is
``EvidenceToolBypassed``, raised by the release node before anything is released.

    ledger = LedgerRun(harness, run_id)
    model = chat_model.bind_tools(ledger.tools)
    graph = StateGraph(LedgerState)
    graph.add_node("agent", agent)          # your node calling ``model``
    ledger.add_to(graph, "agent")           # tools and release nodes, the router, the edges

``add_to`` is the usual wiring (``"tools"`` back to the agent, ``"release"`` to the end); a
graph of another shape adds ``tool_node``, ``release_node`` and ``route`` itself.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any, Literal, NotRequired

from factledger.adapters.integrations.run_binding import EvidenceToolBypassed, RunBinding, require
from factledger.application.async_harness import AsyncHarness
from factledger.domain.json_types import JsonObject
from factledger.domain.release.fallback import ReleaseResult

require("langgraph", "langgraph")

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage  # noqa: E402
from langgraph.graph import END, MessagesState, StateGraph  # noqa: E402

__all__ = ["EvidenceToolBypassed", "LedgerRun", "LedgerState"]


class LedgerState(MessagesState):
    """The graph's state: the messages, and the release result once released."""

    release: NotRequired[dict[str, Any]]
    """The release result's JSON (``ReleaseResult.to_json()``)."""


class LedgerRun:
    """One harness run as a LangGraph graph uses it; see the module docstring."""

    def __init__(self, harness: AsyncHarness, run_id: str) -> None:
        self._binding = RunBinding(harness, run_id)
        self.tools: list[JsonObject] = self._binding.definitions()
        """The evidence tools' OpenAI definitions, for ``model.bind_tools``."""
        self.result: ReleaseResult | None = None
        """The release result, once released."""

    def add_to(self, graph: StateGraph[Any], agent: str = "agent") -> None:
        """Add the ``"tools"`` and ``"release"`` nodes after the ``agent`` node: the router
        from the agent, the tools back to the agent, the release to the end."""
        graph.add_node("tools", self.tool_node)
        graph.add_node("release", self.release_node)
        graph.add_conditional_edges(agent, self.route)
        graph.add_edge("tools", agent)
        graph.add_edge("release", END)

    def route(self, state: LedgerState) -> Literal["tools", "release"]:
        """``"tools"`` when the last message asks for tool calls, else ``"release"``."""
        last = state["messages"][-1] if state["messages"] else None
        if isinstance(last, AIMessage) and (last.tool_calls or last.invalid_tool_calls):
            return "tools"
        return "release"

    async def tool_node(self, state: LedgerState) -> dict[str, list[ToolMessage]]:
        """Answer the last AI message's tool calls, all at once, as one step."""
        messages = state["messages"]
        await self._meter(messages)
        last = messages[-1]
        if not isinstance(last, AIMessage):
            return {"messages": []}
        step = sum(isinstance(message, AIMessage) for message in messages)
        calls = [
            (str(call["id"]), call["name"], json.dumps(call["args"], ensure_ascii=False))
            for call in last.tool_calls
        ] + [
            (str(call["id"]), str(call["name"]), str(call["args"] or ""))
            for call in last.invalid_tool_calls
        ]
        answers = await asyncio.gather(
            *(self._binding.call_text(call_id, name, text, step) for call_id, name, text in calls)
        )
        return {
            "messages": [
                ToolMessage(content=answer, tool_call_id=call_id, name=name)
                for (call_id, name, _), answer in zip(calls, answers, strict=True)
            ]
        }

    async def release_node(self, state: LedgerState) -> dict[str, dict[str, Any]]:
        """Release the last AI message's text as the draft; the result into ``release``."""
        messages = state["messages"]
        await self._meter(messages)
        await self._binding.require_routed(
            (str(call["name"]), str(call["id"]))
            for message in messages
            if isinstance(message, AIMessage)
            for call in (*message.tool_calls, *message.invalid_tool_calls)
        )
        last = messages[-1] if messages else None
        draft = last.text if isinstance(last, AIMessage) and not last.tool_calls else None
        b = self._binding
        self.result = await b.harness.release(b.run_id, draft or None)
        return {"release": self.result.to_json()}

    async def _meter(self, messages: Sequence[AnyMessage]) -> None:
        replies = [message for message in messages if isinstance(message, AIMessage)]
        tokens = [message.usage_metadata for message in replies if message.usage_metadata]
        await self._binding.meter(
            len(replies),
            sum(usage["input_tokens"] for usage in tokens),
            sum(usage["output_tokens"] for usage in tokens),
        )
