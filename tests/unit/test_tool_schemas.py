"""Exported tool definitions: valid for OpenAI strict mode and snapshot-tested against drift.

Run with ``FACTLEDGER_UPDATE_SNAPSHOTS=1`` to rewrite the snapshots after an intended change;
the diff then shows exactly how a contract changed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pydantic import BaseModel

from factledger.application.contracts.envelope import (
    KnowledgeEnvelope,
    LogsEnvelope,
    SqlEnvelope,
)
from factledger.application.contracts.schemas import mcp_tool, openai_strict_problems, openai_tool
from factledger.application.tools.knowledge import KnowledgeTool
from factledger.application.tools.logs import DESCRIPTION as LOGS_DESCRIPTION
from factledger.domain.json_types import JsonObject

SNAPSHOTS = Path(__file__).parent / "snapshots"

CONTRACTS: dict[str, tuple[str, type[BaseModel]]] = {
    "lookup_knowledge": (KnowledgeTool.description, KnowledgeEnvelope),
    "query_logs": (LOGS_DESCRIPTION, LogsEnvelope),
    "query_sql": ("Run one read-only SELECT.", SqlEnvelope),
}


def _check(name: str, exported: JsonObject) -> None:
    path = SNAPSHOTS / f"{name}.json"
    text = json.dumps(exported, indent=2, sort_keys=True) + "\n"
    if os.environ.get("FACTLEDGER_UPDATE_SNAPSHOTS") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot for {name}: run with FACTLEDGER_UPDATE_SNAPSHOTS=1"
    assert path.read_text(encoding="utf-8") == text, f"{name} drifted from its snapshot"


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_the_openai_export_is_valid_for_strict_mode(name: str) -> None:
    description, model = CONTRACTS[name]
    tool = openai_tool(name, description, model)
    function = tool["function"]
    assert isinstance(function, dict)
    assert function["strict"] is True
    assert openai_strict_problems(function["parameters"]) == []


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_the_exported_definitions_match_their_snapshots(name: str) -> None:
    description, model = CONTRACTS[name]
    _check(f"{name}.openai", openai_tool(name, description, model))
    _check(f"{name}.mcp", mcp_tool(name, description, model))


def test_the_strict_checker_finds_what_strict_mode_refuses() -> None:
    loose: JsonObject = {
        "type": "object",
        "properties": {"a": {"type": "string", "minLength": 1}, "b": {"type": "integer"}},
        "required": ["a"],
    }
    problems = openai_strict_problems(loose)
    assert any("every property must be required" in p for p in problems)
    assert any("additionalProperties" in p for p in problems)
    assert any("minLength" in p for p in problems)
