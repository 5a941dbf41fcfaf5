"""Redaction throughput: the current redactor against a reference revision, same lines, same run.

The lines are realistic log lines: the synthetic order-service log (``logs_synthetic``) and the
eight Loghub samples of the shared data (their contents, when the folder is there). Each side
runs in its own process: the reference is the package tree of ``--reference`` (a git revision,
by default the last one before redaction was split into rule families) extracted to a
temporary folder and put first on the import path. The two sides alternate, one process per
round, each redacting every line twice with a fresh ``Redactor`` (as the projector does:
``redact_words`` with the template mask) and reporting the median of the two; the figures are
medians over the rounds, the ratio is current / reference (above 1 is faster).

    python bench/redaction.py [--lines 200000] [--rounds 5] [--reference REV] [--data DIR]
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
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker is not None:
        _worker(arguments.worker, arguments.rounds)
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
