"""Running a recorded agent (a transcript) or a live model against a harness, and showing it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from factledger.adapters.models.transcript import TranscriptModel, load_transcript
from factledger.adapters.system import SystemClock
from factledger.application.agent_loop import AgentLoop, LoopResult
from factledger.application.harness import Harness
from factledger.domain.json_types import JsonObject, JsonValue

__all__ = ["describe_observation", "print_result", "run_transcript"]


def run_transcript(harness: Harness, path: Path, *, principal: str | None = None) -> LoopResult:
    """Replay one transcript in a new run and release it (``principal``: the run's owner)."""
    transcript = load_transcript(path)
    run_id = harness.start_run(
        question=transcript.question,
        service=transcript.service,
        start=transcript.start,
        end=transcript.end,
        principal=principal,
    )
    model = TranscriptModel(transcript)
    loop = AgentLoop(harness, SystemClock())
    return loop.run(model, run_id, transcript.question, repairer=model.repairer)


def describe_observation(observation: JsonObject) -> str:
    """One line for a terminal: status and what mattered."""
    status = str(observation.get("status"))
    parts = [status]
    if status == "READY":
        parts.append(str(observation.get("evidence_status")))
        for key in ("matched_count", "pattern_count"):
            if key in observation:
                parts.append(f"{key}={observation[key]}")
        if "evidence" in observation and isinstance(observation["evidence"], list):
            parts.append(f"blocks={len(observation['evidence'])}")
            parts.append(f"relevance={observation.get('relevance_level')}")
        if "rows" in observation and isinstance(observation["rows"], list):
            parts.append(f"rows={len(observation['rows'])}")
    else:
        parts.append(str(observation.get("error_code")))
        if observation.get("reason"):
            parts.append(f"reason={observation['reason']}")
    if observation.get("repair_required"):
        parts.append(f"repair_required ({observation.get('violation_type')})")
    if observation.get("stop_required"):
        parts.append(f"stop_required ({observation.get('stop_reason')})")
    return "  ".join(parts)


def _style(text: str, code: str, stream: TextIO) -> str:
    return f"\033[{code}m{text}\033[0m" if stream.isatty() else text


def print_result(
    title: str, result: LoopResult, guard_steps: list[str], stream: TextIO = sys.stdout
) -> None:
    """A readable account of one run: calls, guard steps, the outcome."""
    print(_style(f"== {title} ==", "1", stream), file=stream)
    print(f"run {result.run_id}", file=stream)
    for tool_call_id, observation in result.observations:
        print(f"  {tool_call_id:<8} {describe_observation(observation.to_json())}", file=stream)
    if guard_steps:
        print(f"  guard: {' → '.join(guard_steps)}", file=stream)
    release = result.release.to_json()
    outcome = str(release.get("outcome"))
    colour = {"SUCCESS": "32", "FALLBACK": "33"}.get(outcome, "31")
    line = f"  outcome: {outcome}  run_state={release.get('run_state')}"
    fallback = release.get("fallback")
    if isinstance(fallback, dict):
        line += f"  fallback={fallback.get('type')}  stage={fallback.get('failure_stage')}"
    if release.get("failure_code"):
        line += f"  failure_code={release.get('failure_code')}"
    print(_style(line, colour, stream), file=stream)
    published = release.get("published_result")
    if isinstance(published, dict):
        print(f"  conclusion: {published.get('conclusion')}", file=stream)
        sources = published.get("source_documents")
        if isinstance(sources, list):
            print(f"  sources: {len(sources)}", file=stream)
    if isinstance(fallback, dict):
        _print_fallback(fallback, stream)
    print(f"  explain it: factledger runs show {result.run_id}", file=stream)


def _print_fallback(fallback: JsonObject, stream: TextIO) -> None:
    issues = fallback.get("validation_issues")
    if isinstance(issues, list) and issues:
        listed = ", ".join(_issue(issue) for issue in issues)
        print(f"  violations: {listed}", file=stream)
    facts = fallback.get("observed_facts")
    if isinstance(facts, list):
        print(f"  verified facts: {len(facts)}", file=stream)
    if fallback.get("stop_reason"):
        print(f"  stop reason: {fallback.get('stop_reason')}", file=stream)


def _issue(issue: JsonValue) -> str:
    if not isinstance(issue, dict):
        return str(issue)
    where = issue.get("tool_call_id") or (
        f"analysis {issue.get('analysis_index')}" if issue.get("analysis_index") is not None else ""
    )
    return f"{issue.get('code')}({where})" if where else str(issue.get("code"))
