"""Throughput of the whole logs projector against Drain3, and peak memory for 1M lines.

    python bench/logs_throughput.py [--data DIR] [--synthetic-lines N] [--rss-lines N]

For each input the same raw lines are given to both, in one run:

* Drain3 (``TemplateMiner`` with the masks of its example configuration, similarity 0.4,
  depth 4, ``_`` as extra delimiter, profiling off) mines every raw line;
* the projector (redaction, stack folding, template mining, selection) projects the raw JSON
  that the embedded file backend's record reader makes of those lines (every record, no
  limit).

The reader is timed apart, as the file backend itself: the lines written to a file, an open
query (no filter, the largest record limit) answered by ``FileLogBackend``, which reads,
parses and counts every record and returns a spread sample of at most 20,000 of them.
``reader_plus_projector`` adds the two times.

Each side first warms up on 2,000 other lines, then runs five times (taking turns), each
time on a fresh instance; the shortest run is reported. Times are the process's CPU time
(``time.process_time``), so other work on the machine does not count against either side.
Lines/s counts input lines (continuation lines included).
Peak RSS is measured in a child process that reads a 1M-line raw result and projects it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.logs_common import (  # noqa: E402
    DATASETS,
    DEFAULT_LOGHUB,
    DRAIN3_EXAMPLE_MASKS,
    OPEN_QUERY,
    drain3_miner,
    raw_for,
    require_directory,
)
from bench.logs_synthetic import service_log  # noqa: E402
from factledger.adapters.logs.file_backend import FileLogBackend  # noqa: E402
from factledger.domain.logs.projector import project_logs  # noqa: E402
from factledger.domain.logs.query import MAX_LIMIT, LogQuery  # noqa: E402

RUNS = 5


def best_seconds(*runs: Callable[[], object]) -> list[float]:
    """The shortest of ``RUNS`` timings of each run, the runs taking turns (so that a busy
    moment of the machine hits them alike)."""
    timings: list[list[float]] = [[] for _ in runs]
    for _ in range(RUNS):
        for index, run in enumerate(runs):
            started = time.process_time()
            run()
            timings[index].append(time.process_time() - started)
    return [min(values) for values in timings]


def drain3_run(lines: Sequence[str]) -> Callable[[], object]:
    def run() -> object:
        miner = drain3_miner(DRAIN3_EXAMPLE_MASKS, 0.4, 4, ("_",), 1024)
        add = miner.add_log_message  # type: ignore[attr-defined]
        for line in lines:
            add(line)
        return miner

    return run


def projector_run(raw: str) -> Callable[[], object]:
    def run() -> object:
        return project_logs(raw, OPEN_QUERY).unwrap()

    return run


def backend_run(folder: Path) -> Callable[[], object]:
    query = LogQuery(service=None, text=None, start=None, end=None, limit=MAX_LIMIT)

    def run() -> object:
        return FileLogBackend(folder).query(query, deadline=time.monotonic() + 3600).unwrap()

    return run


def measure(name: str, lines: Sequence[str], warm_up: Sequence[str]) -> dict[str, object]:
    warm_raw = raw_for(warm_up, "warmup")
    drain3_run(warm_up)()
    projector_run(warm_raw)()
    raw = raw_for(lines, "bench")
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "bench.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
        drain, projector, reading = best_seconds(
            drain3_run(lines), projector_run(raw), backend_run(Path(folder))
        )
    row = {
        "input": name,
        "lines": len(lines),
        "drain3_lines_per_s": round(len(lines) / drain),
        "projector_lines_per_s": round(len(lines) / projector),
        "reader_lines_per_s": round(len(lines) / reading),
        "ratio": round(drain / projector, 2),
        "reader_plus_projector_lines_per_s": round(len(lines) / (projector + reading)),
        "ratio_with_reader": round(drain / (projector + reading), 2),
    }
    print(json.dumps(row), flush=True)
    return row


def peak_rss(lines: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        raw_path = Path(folder) / "raw.json"
        raw_path.write_text(
            raw_for([line.text for line in service_log(lines, seed=11)], "rss"), encoding="utf-8"
        )
        child = subprocess.run(
            [sys.executable, __file__, "--rss-child", str(raw_path)],
            check=True,
            capture_output=True,
            text=True,
        )
    row: dict[str, object] = json.loads(child.stdout)
    row["lines"] = lines
    print(json.dumps(row), flush=True)
    return row


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def rss_child(raw_path: Path) -> None:
    """Read the raw result, reset the peak-RSS counter, project, report both."""
    data = raw_path.read_bytes()
    raw = data.decode("utf-8")
    del data
    read_peak = _status_kib("VmHWM")
    reset = Path("/proc/self/clear_refs")
    try:
        reset.write_text("5")  # Linux: reset VmHWM to the current RSS
        peak_was_reset = True
    except OSError:
        peak_was_reset = False
    before = _status_kib("VmRSS")
    started = time.process_time()
    result = project_logs(raw, OPEN_QUERY).unwrap()
    seconds = time.process_time() - started
    peak = _status_kib("VmHWM")
    print(
        json.dumps(
            {
                "raw_bytes": len(raw.encode("utf-8")),
                "rss_mib_holding_raw": round(before / 1024, 1),
                "peak_rss_mib_while_reading_raw": round(read_peak / 1024, 1),
                "peak_rss_mib_during_projection": round(peak / 1024, 1),
                "projection_added_mib": round((peak - before) / 1024, 1),
                "peak_counter_reset": peak_was_reset,
                "projection_cpu_seconds": round(seconds, 2),
                "observation_bytes": len(
                    json.dumps(
                        result.agent_result, ensure_ascii=False, separators=(",", ":")
                    ).encode("utf-8")
                ),
            }
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Logs projector throughput against Drain3.")
    parser.add_argument("--data", type=Path, default=DEFAULT_LOGHUB, help="Loghub directory")
    parser.add_argument("--synthetic-lines", type=int, default=200_000)
    parser.add_argument("--rss-lines", type=int, default=1_000_000)
    parser.add_argument("--rss-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rss_child is not None:
        rss_child(args.rss_child)
        return 0
    root = require_directory(args.data)
    loghub: list[str] = []
    for name in DATASETS:
        path = root / name / f"{name}_2k.log"
        if not path.is_file():
            sys.exit(f"missing {path}")
        loghub.extend(path.read_text(encoding="utf-8", errors="replace").splitlines())
    warm_up = [line.text for line in service_log(2_000, seed=3)]
    measure("loghub-8x2k", loghub, warm_up)
    synthetic = [line.text for line in service_log(args.synthetic_lines, seed=5)]
    measure(f"synthetic-{args.synthetic_lines}", synthetic, warm_up)
    if args.rss_lines:
        peak_rss(args.rss_lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
