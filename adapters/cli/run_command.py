"""``factledger run``: replay a recorded agent, or run a live model, in one new run.

    factledger run --config FILE --transcript T [--json]
    factledger run --config FILE --model NAME --question Q --service S --start T --end T [--json]

``--json`` prints ``{"run_id", "observations": [{"tool_call_id", "observation"}...],
"release"}``. Without a service and a window a live run is released as
MISSING_REQUIRED_CONTEXT. The exit code is the release outcome's: 0 SUCCESS, 3 FALLBACK,
4 FAILED, 5 CANCELLED; 2 for bad settings or arguments, 1 when the run could not be made
(``contract.py``).
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path

from factledger.adapters.bootstrap import build_chat_client, build_harness
from factledger.adapters.cli.contract import CliError, ExitCode, exit_for, fail
from factledger.adapters.cli.scenario import print_result, run_transcript
from factledger.adapters.cli.warnings import warn_without_tools
from factledger.adapters.config.settings import SettingsError, load_settings
from factledger.adapters.models.openai_model import OpenAiChatModel
from factledger.adapters.models.transcript import TranscriptError
from factledger.adapters.system import SystemClock
from factledger.application.agent_loop import AgentLoop
from factledger.application.harness import HarnessError

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("run", help="replay a transcript or run a live model once")
    parser.add_argument("--config", help="settings file (default: the lookup order)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--transcript", type=Path, help="a recorded agent to replay")
    source.add_argument("--model", help="a live model name at the [model] endpoint")
    parser.add_argument("--question", default="", help="the question (live model)")
    parser.add_argument("--service", help="the service to diagnose (live model)")
    parser.add_argument("--start", help="window start, ISO-8601 with a time zone")
    parser.add_argument("--end", help="window end, ISO-8601 with a time zone")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=_run)


def _instant(text: str | None) -> datetime | None:
    if text is None:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.config)
        if args.model is not None:
            settings = settings.model_copy(
                update={"model": settings.model.model_copy(update={"name": args.model})}
            )
        harness = build_harness(settings)
    except SettingsError as invalid:
        return fail(args, "run", CliError.INVALID_SETTINGS, str(invalid), ExitCode.USAGE)
    with harness:
        warn_without_tools("run", harness)
        try:
            if args.transcript is not None:
                result = run_transcript(harness, args.transcript)
            else:
                client = build_chat_client(settings, "--model")
                run_id = harness.start_run(
                    question=args.question,
                    service=args.service,
                    start=_instant(args.start),
                    end=_instant(args.end),
                )
                try:
                    result = AgentLoop(harness, SystemClock()).run(
                        OpenAiChatModel(client), run_id, args.question
                    )
                finally:
                    client.close()
        except HarnessError as refused:
            return fail(args, "run", CliError.FAILED, str(refused))
        except (TranscriptError, SettingsError, ValueError, OSError) as failed:
            return fail(args, "run", CliError.INVALID_ARGUMENT, str(failed), ExitCode.USAGE)
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print_result("run", result, [])
    return int(exit_for(result.release.outcome))
