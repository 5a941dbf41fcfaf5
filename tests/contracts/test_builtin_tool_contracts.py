"""The evidence-tool contract suite, run against the three built-in tools over the bundled
demo incident (runbooks in SQLite FTS5, log files, the SQLite payments datasource)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

import pytest

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.demo.incident import demo_settings
from factledger.testing import EvidenceToolContract
from factledger.tools import ToolSpec

WINDOW = {"start": "2026-03-14T09:00:00Z", "end": "2026-03-14T10:00:00Z"}


@pytest.fixture(scope="module")
def demo_runtime() -> Iterator[Runtime]:
    """The demo's wiring, whose configured tools the suites take one by one."""
    workdir = Path(tempfile.mkdtemp(prefix="factledger-contract-"))
    settings = demo_settings(workdir, StoreSettings(kind="memory")).model_copy(update={"tools": {}})
    runtime = build_runtime(settings, tools=())
    yield runtime
    runtime.close()


class _FromDemo(EvidenceToolContract):
    name: ClassVar[str]
    service = "card-gateway"
    window = (datetime(2026, 3, 14, 9, tzinfo=UTC), datetime(2026, 3, 14, 10, tzinfo=UTC))

    @pytest.fixture(autouse=True)
    def _runtime(self, demo_runtime: Runtime) -> None:
        self._demo = demo_runtime

    def make_tool(self) -> ToolSpec:
        # The built-in tools hold no resources of their own: the demo runtime closes their
        # backends, so lending the same tool to each suite's harness is safe.
        spec = self._demo.registry.spec(self.name)
        assert spec is not None
        return spec


class TestLookupKnowledge(_FromDemo):
    name = "lookup_knowledge"
    found_inputs = ({"query": "GW-504 pool exhausted"}, {"query": "acquirer timeout"})
    empty_inputs = ({"query": "zebra xylophone quartz"},)


class TestQueryLogs(_FromDemo):
    name = "query_logs"
    found_inputs = (
        {"service": "card-gateway", "query": "GW-504", **WINDOW, "limit": None},
        {"service": "payments-api", "query": "", **WINDOW, "limit": 50},
    )
    empty_inputs = ({"service": "ledger", "query": "deadlock", **WINDOW, "limit": None},)
    invalid_inputs = (
        {"service": "card-gateway", "query": "x", "start": WINDOW["end"], "end": WINDOW["start"],
         "limit": None},
    )  # fmt: skip


class TestQuerySql(_FromDemo):
    name = "query_sql"
    found_inputs = (
        {
            "datasource": "payments",
            "sql": "SELECT status, COUNT(id) AS n FROM orders GROUP BY status",
        },
        {"datasource": "payments", "sql": "SELECT id, email, api_token FROM users LIMIT 3"},
    )
    empty_inputs = ({"datasource": "payments", "sql": "SELECT id FROM orders WHERE amount < 0"},)
