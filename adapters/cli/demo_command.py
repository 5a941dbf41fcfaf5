"""``factledger demo``: the bundled incident, replayed by three recorded agents.

On embedded defaults (a SQLite store in ``.factledger/``, runbooks in SQLite FTS5, log files,
a SQLite payments datasource), with no server, no network and no API key: an honest agent
(SUCCESS with its sources), a hallucinating agent that cites calls it never made (FALLBACK,
EVIDENCE_VALIDATION_FAILED, violations listed) and a looping agent (stopped as
INFORMATION_SATURATED, FALLBACK with its observed facts).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.cli.contract import CliError, ExitCode, fail
from factledger.adapters.cli.scenario import print_result, run_transcript
from factledger.adapters.config.settings import SettingsError
from factledger.adapters.demo.incident import SCENARIOS, demo_settings, transcript_path
from factledger.application.harness import Harness
from factledger.domain.json_types import JsonObject

__all__ = ["register"]

_GUARD_EVENTS = {
    "DRAFT_CHECK": "check",
    "EVIDENCE_GUARD_INITIAL": "guard",
    "EVIDENCE_REPAIR_ATTEMPT": "repair",
    "EVIDENCE_GUARD_RECHECK": "re-check",
    "SEMANTIC_ATTEMPT": "semantic",
    "SEMANTIC_DECISION": "semantic decision",
    "RELEASE_DECISION": "release",
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "demo", help="replay the bundled incident with three recorded agents (no network)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--dir",
        default=".factledger",
        help="where the store and the demo datasource live (default: .factledger)",
    )
    parser.set_defaults(handler=_run)


def guard_steps(harness: Harness, run_id: str) -> list[str]:
    """The release's recorded steps, in order, with their verdicts."""
    steps: list[str] = []
    for step in harness.release_steps(run_id):
        name = _GUARD_EVENTS.get(step.step, step.step)
        steps.append(f"{name}:{step.verdict}" if step.verdict is not None else name)
    return steps


def _run(args: argparse.Namespace) -> int:
    try:
        settings = demo_settings(Path(args.dir))
        harness = build_harness(settings)
    except SettingsError as invalid:
        return fail(args, "demo", CliError.INVALID_SETTINGS, str(invalid), ExitCode.USAGE)
    results: JsonObject = {}
    with harness:
        for scenario in SCENARIOS:
            result = run_transcript(harness, transcript_path(scenario))
            results[scenario] = result.to_json()
            if not args.json:
                print_result(scenario, result, guard_steps(harness, result.run_id))
                print()
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print("list the runs: factledger runs list")
    return 0
