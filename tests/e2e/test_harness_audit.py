"""The facade's audit view and rebuild: rows folded from the log, never content."""

from __future__ import annotations

import json
from pathlib import Path

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.cli.scenario import run_transcript
from factledger.adapters.demo.incident import demo_settings, transcript_path


def test_the_audit_view_shows_a_released_run_and_a_rebuild_gives_the_same_rows(
    tmp_path: Path,
) -> None:
    with build_harness(demo_settings(tmp_path)) as harness:
        result = run_transcript(harness, transcript_path("honest"))
        audit = harness.audit(result.run_id)
        assert audit.run.release_outcome == "SUCCESS"
        assert len(audit.invocations) == 5
        text = json.dumps(audit.to_json())
        assert "sk_live_" not in text
        assert "SELECT" not in text
        summary = harness.rebuild()
        assert summary.ok is True
        assert harness.audit(result.run_id) == audit
