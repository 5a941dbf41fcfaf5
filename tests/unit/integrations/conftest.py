"""An async harness over one runbook on the in-process store, for the framework integrations."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from factledger import AsyncHarness, Settings, build_harness
from factledger.adapters.config.sections import KnowledgeSettings, StoreSettings

CLAIM = "Authorisations fail with GW-504: the card-gateway acquirer connection pool is exhausted."


def open_harness(folder: Path) -> AsyncHarness:
    (folder / "runbooks").mkdir()
    (folder / "runbooks" / "gw-504.md").write_text(
        "# card-gateway: GW-504 acquirer timeouts\n\n## Symptoms\n\nAuthorisations fail with "
        "GW-504 when the card-gateway acquirer connection pool is exhausted.\n",
        encoding="utf-8",
    )
    settings = Settings(
        store=StoreSettings(kind="memory"),
        knowledge=KnowledgeSettings(dir=str(folder / "runbooks")),
    )
    return AsyncHarness(build_harness(settings))


async def start(harness: AsyncHarness) -> str:
    return await harness.start_run(
        question="Why?",
        service="card-gateway",
        start=datetime(2026, 3, 14, 9, tzinfo=UTC),
        end=datetime(2026, 3, 14, 10, tzinfo=UTC),
    )


def lookup(query: str) -> str:
    return json.dumps({"previous_observation": None, "input": {"query": query}})


def draft(cited: str) -> dict[str, object]:
    analysis = {"kind": "SUPPORTING_EVIDENCE", "claim": CLAIM, "tool_call_ids": [cited]}
    return {"conclusion": CLAIM, "analyses": [analysis]}
