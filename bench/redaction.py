"""Redaction throughput: the current redactor against a reference revision, same lines, same run.

The lines are realistic log lines: the synthetic order-service log (``logs_synthetic``) and the
eight Loghub samples of the shared data (their contents, when the folder is there). Each side
runs in its own process: the reference is the package tree of ``--reference`` (a git revision,
by default the last one before redaction was split into rule families) extracted to a
temporary folder and put first on the import path. The two sides alternate, one process per
round, each redacting every line twice with a fresh ``Redactor`` (as the projector does:
``redact_words`` with the template mask) and reporting the median of the two; the figures are
medians over the rounds, the ratio is current / reference (above 1 is faster).

With ``--instructions N`` it counts instead of timing: each side redacts the first N lines
(Loghub-heavy: 4,000 synthetic lines, then the Loghub samples) twice, with a fresh
``Redactor`` each time, under ``valgrind --tool=callgrind``, once more with no line, and the
difference is the redaction's instruction count. Counts repeat whatever else the machine does,
so a change of a few per cent shows where timings on a shared machine cannot.

    python bench/redaction.py [--lines 200000] [--rounds 5] [--reference REV] [--data DIR]
    python bench/redaction.py --instructions 20000 [--reference REV] [--data DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
REFERENCE: Final = "c6b5e41"
"""The revision whose redactor is the reference (before the rule families)."""
DEFAULT_DATA: Final = Path("/work/shared/data/loghub")


def _lines(count: int, data: Path) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from bench.logs_synthetic import service_log

    lines = [line.text for line in service_log(count)]
    if data.is_dir():
        for log in sorted(data.glob("*/*_2k.log")):
            lines.extend(log.read_text(encoding="utf-8", errors="replace").splitlines())
    return lines


def _worker(path: Path, rounds: int) -> None:
    from factledger.domain.logs.redaction import Redactor
    from factledger.domain.logs.templates import mask_word

    lines = json.loads(path.read_text(encoding="utf-8"))
    rates = []
    for _ in range(rounds):
        redactor = Redactor(word_hook=mask_word)
        redact_words = redactor.redact_words
        started = time.perf_counter()
        for line in lines:
            redact_words(line)
        rates.append(len(lines) / (time.perf_counter() - started))
    print(json.dumps({"median": statistics.median(rates)}))


def _counting_worker(path: Path, count: int) -> None:
    from factledger.domain.logs.redaction import Redactor
    from factledger.domain.logs.templates import mask_word

    lines = json.loads(path.read_text(encoding="utf-8"))[:count]
    for _ in range(2):
        redact_words = Redactor(word_hook=mask_word).redact_words
        for line in lines:
            redact_words(line)


def _instructions(path: Path, count: int, python_path: str | None, scratch: Path) -> int:
    """Instructions callgrind counts for a worker redacting ``count`` lines twice."""
    env = dict(os.environ)
    if python_path is not None:
        env["PYTHONPATH"] = python_path
    out = scratch / "callgrind.out"
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--count-worker",
            str(path),
            "--instructions",
            str(count),
        ],
        check=True,
        capture_output=True,
        env=env,
    )
    totals = [line for line in out.read_text().splitlines() if line.startswith("totals:")]
    return int(totals[0].split()[1])


def _count(path: Path, count: int, tree: Path, scratch: Path) -> None:
    sides = {"reference": str(tree), "current": None}
    spent = {
        name: _instructions(path, count, where, scratch) - _instructions(path, 0, where, scratch)
        for name, where in sides.items()
    }
    per_line = {name: total / (2 * count) for name, total in spent.items()}
    print(f"lines redacted (twice, fresh redactors)  {count:,}")
    print(f"reference: instructions per line        {per_line['reference']:,.0f}")
    print(f"current: instructions per line          {per_line['current']:,.0f}")
    print(f"reference / current (above 1: fewer)    {spent['reference'] / spent['current']:.3f}")


def _reference_tree(revision: str, folder: Path) -> Path:
    """The reference revision's code folders, laid out as the ``factledger`` package."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "domain"],
        check=True,
        capture_output=True,
    ).stdout
    package = folder / "factledger"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(package, filter="data")
    return folder


def _run(path: Path, rounds: int, python_path: str | None) -> float:
    env = dict(os.environ)
    if python_path is not None:
        env["PYTHONPATH"] = python_path
    done = subprocess.run(
        [sys.executable, __file__, "--worker", str(path), "--rounds", str(rounds)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    return float(json.loads(done.stdout)["median"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reference", default=REFERENCE)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--instructions", type=int, help="count instructions over N lines")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--count-worker", type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker is not None:
        _worker(arguments.worker, arguments.rounds)
        return
    if arguments.count_worker is not None:
        _counting_worker(arguments.count_worker, arguments.instructions)
        return
    if arguments.instructions is not None:
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            path = folder / "lines.json"
            path.write_text(json.dumps(_lines(4_000, arguments.data)), encoding="utf-8")
            tree = _reference_tree(arguments.reference, folder / "reference")
            _count(path, arguments.instructions, tree, folder)
        return
    lines = _lines(arguments.lines, arguments.data)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        path = folder / "lines.json"
        path.write_text(json.dumps(lines), encoding="utf-8")
        tree = _reference_tree(arguments.reference, folder / "reference")
        references, currents = [], []
        for _ in range(arguments.rounds):
            references.append(_run(path, 2, str(tree)))
            currents.append(_run(path, 2, None))
        reference = statistics.median(references)
        current = statistics.median(currents)
    print(f"lines per round                         {len(lines):,}")
    print(f"reference redactor ({arguments.reference}): median    {reference:,.0f} lines/s")
    print(f"current redactor: median                {current:,.0f} lines/s")
    print(f"current / reference                     {current / reference:.2f}×")


if __name__ == "__main__":
    main()
