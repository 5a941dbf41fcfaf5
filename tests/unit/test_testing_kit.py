"""The testing kit's property test, as the README shows it: whatever the agent drafts,
nothing is released that cites a call it did not make."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.testing.strategies import adversarial_drafts

harness = build_harness(
    demo_settings(Path(tempfile.mkdtemp(prefix="factledger-kit-")), StoreSettings(kind="memory"))
)
START, END = datetime(2026, 3, 14, 9, tzinfo=UTC), datetime(2026, 3, 14, 10, tzinfo=UTC)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(adversarial_drafts(real_ids=["c1"]))
def test_nothing_is_published_that_cites_a_call_the_agent_did_not_make(draft: str | None) -> None:
    run_id = harness.start_run(question="why?", service="card-gateway", start=START, end=END)
    harness.observe(run_id, "c1", "lookup_knowledge", json.dumps({"input": {"query": "GW-504"}}))
    published = harness.release(run_id, draft).published_result
    if published is not None:
        assert all(set(a.tool_call_ids) <= {"c1"} for a in published.analyses)
