"""The incident test: a late burst of a new error template in 200,000 lines is never cut."""

from __future__ import annotations

import json

from bench.logs_common import OPEN_QUERY, raw_for
from bench.logs_synthetic import service_log
from factledger.domain.logs.projector import DEFAULT_BUDGET_BYTES, project_logs
from factledger.domain.logs.timestamps import parse_instant
from tests.unit.logs.raw_builders import arr, obj

LINES = 200_000
BUCKETS = 20


def _count(levels: dict[str, object], *names: str) -> int:
    return sum(int(str(levels.get(name, 0))) for name in names)


def test_a_late_error_burst_every_error_template_and_the_whole_window_are_shown() -> None:
    lines = list(service_log(LINES, seed=7, with_incident=True))
    incident = [line for line in lines if line.incident]
    assert len(incident) == int(LINES * 0.003)
    result = project_logs(raw_for([line.text for line in lines], "orders"), OPEN_QUERY).unwrap()
    agent_result = result.agent_result
    encoded = json.dumps(agent_result, ensure_ascii=False, separators=(",", ":")).encode()
    assert len(encoded) <= DEFAULT_BUDGET_BYTES

    patterns = [obj(pattern) for pattern in arr(agent_result["patterns"])]
    burst = [p for p in patterns if "Connection is not available" in str(p["template"])]
    assert len(burst) == 1
    assert burst[0]["count"] == len(incident)

    shown_errors = sum(_count(obj(p["levels"]), "ERROR", "FATAL") for p in patterns)
    assert shown_errors == _count(obj(agent_result["level_counts"]), "ERROR", "FATAL")

    observed = obj(agent_result["observed_range"])
    first = parse_instant(str(observed["first"]))
    last = parse_instant(str(observed["last"]))
    assert first is not None
    assert last is not None
    span = last.timestamp() - first.timestamp()
    shown_times = [str(obj(event)["ts"]) for event in arr(agent_result["events"])]
    shown_times += [str(obj(example)["ts"]) for p in patterns for example in arr(p["examples"])]
    buckets = set()
    for moment in shown_times:
        instant = parse_instant(moment)
        assert instant is not None
        offset = (instant.timestamp() - first.timestamp()) / span
        buckets.add(min(BUCKETS - 1, int(offset * BUCKETS)))
    assert len(buckets) >= 0.9 * BUCKETS
