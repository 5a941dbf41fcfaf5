"""The incident scenario, measured: 200,000 lines over 24 hours with a burst of a new error
template (0.3 % of the lines) in the last 10 % of the window.

    python bench/logs_incident.py [--lines N]

Prints, for the default observation budget, whether the burst's template is shown, how many
error templates are shown and how many templates were left out, whether every error record is
covered by a shown template, and how many of 20 equal time buckets have a shown event or
example — once projecting every record, once through the embedded file backend with the
tool's default record limit (there, counts are those of the returned sample).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.logs_common import OPEN_QUERY, raw_for  # noqa: E402
from bench.logs_synthetic import service_log  # noqa: E402
from factledger.adapters.logs.file_backend import FileLogBackend  # noqa: E402
from factledger.domain.json_types import JsonObject  # noqa: E402
from factledger.domain.logs.projector import DEFAULT_BUDGET_BYTES, project_logs  # noqa: E402
from factledger.domain.logs.query import LogQuery  # noqa: E402
from factledger.domain.logs.timestamps import parse_instant  # noqa: E402

BUCKETS = 20


def summary(agent_result: JsonObject, burst_size: int) -> dict[str, object]:
    patterns = [p for p in agent_result["patterns"] if isinstance(p, dict)]  # type: ignore[union-attr]
    burst = [p for p in patterns if "Connection is not available" in str(p["template"])]

    def errors(levels: object) -> int:
        assert isinstance(levels, dict)
        return sum(int(str(levels.get(name, 0))) for name in ("ERROR", "FATAL", "CRITICAL"))

    observed = agent_result["observed_range"]
    assert isinstance(observed, dict)
    first = parse_instant(str(observed["first"]))
    last = parse_instant(str(observed["last"]))
    assert first is not None
    assert last is not None
    span = last.timestamp() - first.timestamp()
    times = [str(e["ts"]) for e in agent_result["events"] if isinstance(e, dict)]  # type: ignore[union-attr]
    times += [str(x["ts"]) for p in patterns for x in p["examples"] if isinstance(x, dict)]  # type: ignore[union-attr]
    buckets = set()
    for moment in times:
        instant = parse_instant(moment)
        if instant is not None:
            offset = (instant.timestamp() - first.timestamp()) / span
            buckets.add(min(BUCKETS - 1, int(offset * BUCKETS)))
    return {
        "observation_bytes": len(
            json.dumps(agent_result, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        ),
        "budget_bytes": DEFAULT_BUDGET_BYTES,
        "burst_template_shown": len(burst) == 1,
        "burst_count_shown": burst[0]["count"] if burst else None,
        "burst_lines_written": burst_size,
        "error_records_matched": errors(agent_result["level_counts"]),
        "error_records_in_shown_templates": sum(errors(p["levels"]) for p in patterns),
        "error_templates_shown": sum(1 for p in patterns if errors(p["levels"])),
        "templates_omitted": int(str(agent_result["pattern_count"])) - len(patterns),
        "buckets_with_shown_record": f"{len(buckets)}/{BUCKETS}",
        "patterns_shown": f"{len(patterns)}/{agent_result['pattern_count']}",
        "truncation_reasons": agent_result["truncation_reasons"],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The incident scenario.")
    parser.add_argument("--lines", type=int, default=200_000)
    args = parser.parse_args(argv)
    lines = list(service_log(args.lines, seed=7, with_incident=True))
    burst_size = sum(1 for line in lines if line.incident)
    texts = [line.text for line in lines]
    started = time.process_time()
    every = project_logs(raw_for(texts, "orders"), OPEN_QUERY).unwrap()
    row = {"path": "every record projected", **summary(every.agent_result, burst_size)}
    row["cpu_seconds"] = round(time.process_time() - started, 2)
    print(json.dumps(row))
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "orders.log").write_text("\n".join(texts) + "\n", encoding="utf-8")
        query = LogQuery(service=None, text=None, start=None, end=None)
        raw = FileLogBackend(Path(folder)).query(query, deadline=time.monotonic() + 600).unwrap()
        limited = project_logs(raw, query).unwrap()
    row = {
        "path": f"file backend, default limit {query.limit} records",
        **summary(limited.agent_result, burst_size),
    }
    print(json.dumps(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
