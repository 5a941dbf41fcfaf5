"""The file backend's scan against ``grep -ciF`` on the same file, in the same run.

    python bench/logs_scan.py [--lines N] [--runs R] [--no-reference]

Writes N JSON lines (default 1,000,000, about 150 bytes each, 20 lines a second over the
window, five services, a rare term in 7 lines) to a temporary file, then times, taking turns:

* a rare-term query (``quotaexceeded``): the backend (a fresh backend each run) against
  ``grep -ciF quotaexceeded FILE``, with both matched counts;
* a frequent-term query (``completed``, in 90 % of the lines) against ``grep -ciF``;
* a window query without a term (10 minutes in the middle of the file): cold (a fresh
  backend: it reads every line and leaves a time index) and warm (the same backend again);
* once, unless ``--no-reference``: the reference matcher (the line-by-line scan the backend
  replaced, kept as the test oracle) on the rare-term query, with its matched count.

Times are wall-clock medians over R runs (default 5), grep measured in the same rounds as the
backend, so the ratio is taken under the same machine load. Lines are JSON records of one
line each, so grep's line count and the backend's record count must agree.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from factledger.adapters.logs.file_backend import FileLogBackend  # noqa: E402
from factledger.domain.logs.query import LogQuery  # noqa: E402

START = datetime(2026, 3, 14, 0, 0, tzinfo=UTC)
SERVICES = ("payments-api", "card-gateway", "ledger", "checkout", "auth")
RARE = "QuotaExceeded"
RARE_LINES = 7


def write_log(path: Path, lines: int) -> None:
    """The benchmark file: JSON lines in time order, 20 a second."""
    chooser = random.Random(15)
    rare_at = set(chooser.sample(range(lines), RARE_LINES))
    with path.open("w", encoding="utf-8") as handle:
        for number in range(lines):
            moment = START + timedelta(milliseconds=50 * number)
            level = "ERROR" if number % 97 == 0 else ("WARN" if number % 31 == 0 else "INFO")
            if number in rare_at:
                message = f"charge {number} refused: {RARE} for merchant m{number % 907}"
            elif number % 10 == 0:
                message = f"retry {number % 5} of order {number} scheduled"
            else:
                message = f"request {number} completed in {number % 997} ms"
            record = {
                "ts": moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z",
                "service": SERVICES[number % len(SERVICES)],
                "level": level,
                "message": message,
                "trace_id": f"{chooser.getrandbits(64):016x}",
            }
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")


def matched(raw: str) -> int:
    head = raw[: raw.index(',"records":')] + "}"
    value = json.loads(head)["matched_count"]
    assert isinstance(value, int)
    return value


def grep_count(term: str, path: Path) -> int:
    command = ["grep", "-ciF", term, str(path)]
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    return int(done.stdout.strip() or 0)


def timed(run: Callable[[], int]) -> tuple[float, int]:
    started = time.perf_counter()
    count = run()
    return time.perf_counter() - started, count


def backend_run(folder: Path, query: LogQuery) -> Callable[[], int]:
    def run() -> int:
        raw = FileLogBackend(folder).query(query, deadline=time.monotonic() + 600).unwrap()
        return matched(raw)

    return run


def side_by_side(name: str, folder: Path, path: Path, term: str, runs: int) -> dict[str, object]:
    """Median times of the backend and grep, taking turns."""
    query = LogQuery.from_request(None, term, None, None, None).unwrap()
    ours: list[float] = []
    theirs: list[float] = []
    counts: set[tuple[int, int]] = set()
    for _ in range(runs):
        seconds, count = timed(backend_run(folder, query))
        ours.append(seconds)
        grep_seconds, grep_matched = timed(lambda: grep_count(term, path))
        theirs.append(grep_seconds)
        counts.add((count, grep_matched))
    (backend_count, grep_matched), *other = sorted(counts)
    row: dict[str, object] = {
        "query": name,
        "term": term,
        "backend_median_s": round(statistics.median(ours), 3),
        "grep_median_s": round(statistics.median(theirs), 3),
        "ratio_to_grep": round(statistics.median(ours) / statistics.median(theirs), 1),
        "backend_matched": backend_count,
        "grep_matched": grep_matched,
        "same_count": backend_count == grep_matched and not other,
    }
    print(json.dumps(row), flush=True)
    return row


def window(folder: Path, lines: int, runs: int) -> dict[str, object]:
    """A 10-minute window in the middle: cold (fresh backend) and warm (same backend)."""
    middle = START + timedelta(milliseconds=50 * lines // 2)
    query = LogQuery(None, None, middle, middle + timedelta(minutes=10))
    cold: list[float] = []
    warm: list[float] = []
    counts: set[int] = set()
    for _ in range(runs):
        backend = FileLogBackend(folder)
        for times in (cold, warm):
            started = time.perf_counter()
            raw = backend.query(query, deadline=time.monotonic() + 600).unwrap()
            times.append(time.perf_counter() - started)
            counts.add(matched(raw))
    row: dict[str, object] = {
        "query": "window, 10 minutes, no term",
        "cold_median_s": round(statistics.median(cold), 3),
        "warm_median_s": round(statistics.median(warm), 3),
        "matched": sorted(counts),
    }
    print(json.dumps(row), flush=True)
    return row


def reference(folder: Path, term: str) -> dict[str, object]:
    """The line-by-line reference matcher, once."""
    from tests.unit.logs.scan_oracle import reference_scan

    query = LogQuery.from_request(None, term, None, None, None).unwrap()
    seconds, count = timed(lambda: matched(reference_scan(folder, query)))
    row: dict[str, object] = {
        "query": "rare term, reference matcher (line by line, the scan replaced)",
        "seconds": round(seconds, 2),
        "matched": count,
    }
    print(json.dumps(row), flush=True)
    return row


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="File backend scan against grep -ciF.")
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-reference", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "payments.jsonl"
        write_log(path, args.lines)
        size = path.stat().st_size
        shape = {"lines": args.lines, "bytes": size, "bytes_per_line": size // args.lines}
        print(json.dumps(shape), flush=True)
        side_by_side("rare term", folder, path, RARE.lower(), args.runs)
        side_by_side("frequent term", folder, path, "completed", args.runs)
        window(folder, args.lines, args.runs)
        if not args.no_reference:
            reference(folder, RARE.lower())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
