"""The incident every framework example diagnoses, and what its scripted model says.

The harness is built in a temporary folder with one runbook (``lookup_knowledge`` only, the
in-process store), so the examples run offline from anywhere. The scripted model makes two
lookups in one turn (a parallel batch: one step) and then hands in a draft: ``honest`` cites
the call that found the runbook, ``forged`` cites a call the agent never made.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from factledger import AsyncHarness, ReleaseResult, build_harness, load_settings

QUESTION = "Why do card payments fail?"
CLAIM = "Authorisations fail with GW-504: the card-gateway acquirer connection pool is exhausted."
RUNBOOK = (
    "# card-gateway: GW-504 acquirer timeouts\n\n## Symptoms\n\n"
    "Authorisations fail with GW-504 when the card-gateway acquirer connection pool is "
    "exhausted (pool exhausted, active=64 idle=0).\n"
)
LOOKUPS = (
    ("call-1", "GW-504 pool exhausted"),
    ("call-2", "card-gateway acquirer timeouts"),
)
"""The batch the model asks for in its first turn: (tool_call_id, query)."""


def scenario() -> str:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenario", choices=["honest", "forged"], default="honest")
    return str(parser.parse_args().scenario)


def lookup_arguments(query: str) -> str:
    """The arguments of one lookup, as the model writes them (raw JSON text)."""
    return json.dumps({"previous_observation": None, "input": {"query": query}})


def draft(which: str) -> str:
    """The draft the model hands in: honest cites call-1, forged a call never made."""
    cited = "call-1" if which == "honest" else "call-404"
    analysis = {"kind": "SUPPORTING_EVIDENCE", "claim": CLAIM, "tool_call_ids": [cited]}
    return json.dumps({"conclusion": CLAIM, "analyses": [analysis]})


def open_harness(folder: Path) -> AsyncHarness:
    """An async harness over one runbook in ``folder`` (nothing leaves the process)."""
    (folder / "runbooks").mkdir()
    (folder / "runbooks" / "gw-504.md").write_text(RUNBOOK, encoding="utf-8")
    config = folder / "factledger.toml"
    config.write_text(
        f'[store]\nkind = "memory"\n\n[knowledge]\ndir = "{(folder / "runbooks").as_posix()}"\n',
        encoding="utf-8",
    )
    return AsyncHarness(build_harness(load_settings(config, environ={})))


async def start(harness: AsyncHarness) -> str:
    return await harness.start_run(
        question=QUESTION,
        service="card-gateway",
        start=datetime(2026, 3, 14, 9, tzinfo=UTC),
        end=datetime(2026, 3, 14, 10, tzinfo=UTC),
    )


def temporary_folder() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="factledger-example-")


def report(result: ReleaseResult) -> None:
    """The release result as JSON, on the last line."""
    print(json.dumps(result.to_json(), ensure_ascii=False))
