"""SQL cost-gate benchmark: how long ten heavy queries keep the database server busy.

    .venv/bin/python bench/sql_cost.py [--rounds N] [--time-limit S] [--engines mariadb,postgres]
                                       [--out FILE]

On MariaDB (127.0.0.1:3306, root) and PostgreSQL (127.0.0.1:5432, postgres, trust), in a
throwaway database each: two tables of 100,000 rows and ten queries the validator accepts
(every join relates rows) that would examine billions of rows (``tests/support/sql_load.py``).
For each engine it measures, with the server's own counters (MariaDB
``USER_STATISTICS.BUSY_TIME`` of the read-only account, PostgreSQL
``pg_stat_database.active_time`` of the database):

- with the cost gate (the default ``max_estimated_rows``): server-busy seconds for the ten
  calls, the median of ``--rounds`` runs, and how many were refused COST_TOO_HIGH;
- the reference, in the same run: the same ten calls with the gate opened wide, each stopped by
  the server-side time limit (``--time-limit`` seconds), once.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from returns.result import Failure

from factledger.adapters.config.sql import SqlSettings
from factledger.adapters.sql.tool import SqlTool
from factledger.domain.tool_result import BackendFailureKind
from tests.support.mariadb_server import running_mariadb
from tests.support.sql_load import (
    HEAVY_QUERIES,
    LoadDatabase,
    create_mariadb,
    create_postgres,
    drop_mariadb,
    drop_postgres,
    mariadb_counters,
    postgres_counters,
)


def _calls(load: LoadDatabase, time_limit: float, *, gate: bool) -> tuple[int, int]:
    """(refused COST_TOO_HIGH, timed out) over the ten heavy calls."""
    settings = load.settings
    if not gate:
        settings = settings.model_copy(update={"max_estimated_rows": 10**15})
    tool = SqlTool.from_settings(SqlSettings(datasources=[settings]))
    assert tool is not None
    refused = timed_out = 0
    try:
        for sql in HEAVY_QUERIES:
            outcome = tool.run(settings.name, sql, time_limit)
            if isinstance(outcome, Failure):
                failure = outcome.failure()
                refused += failure.reason == "COST_TOO_HIGH"
                timed_out += failure.kind is BackendFailureKind.BACKEND_TIMEOUT
    finally:
        tool.close()
    return refused, timed_out


def _measure(
    load: LoadDatabase, counters: Callable[[], tuple[float, int]], time_limit: float, gate: bool
) -> tuple[float, int, int]:
    before = counters()[0]
    refused, timed_out = _calls(load, time_limit, gate=gate)
    return counters()[0] - before, refused, timed_out


def _engine(name: str, rounds: int, time_limit: float) -> list[str]:
    if name == "mariadb":
        address = running_mariadb()
        if address is None:
            return ["| mariadb | not running on 127.0.0.1:3306 | | | |"]
        load = create_mariadb(address)

        def counters() -> tuple[float, int]:
            return mariadb_counters(address, load)

        def drop() -> None:
            drop_mariadb(address, load)
    else:
        load = create_postgres()

        def counters() -> tuple[float, int]:
            return postgres_counters(load)

        def drop() -> None:
            drop_postgres(load)

    try:
        gated = [_measure(load, counters, time_limit, True) for _ in range(rounds)]
        reference = _measure(load, counters, time_limit, False)
    finally:
        drop()
    busy = [seconds for seconds, _, _ in gated]
    refused = min(count for _, count, _ in gated)
    return [
        f"| {name} | with the gate (median of {rounds}) | {statistics.median(busy):.3f} "
        f"| {refused}/10 refused | min {min(busy):.3f}, max {max(busy):.3f} |",
        f"| {name} | gate opened, {time_limit:g} s server time limit each (reference) "
        f"| {reference[0]:.3f} | {reference[2]}/10 timed out | |",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=2.0)
    parser.add_argument("--engines", default="mariadb,postgres")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    lines = [
        "ten heavy queries on two tables of 100,000 rows; server-busy seconds from the "
        "server's own counters",
        "",
        "| engine | run | server busy (s) | outcome | spread |",
        "|---|---|---:|---|---|",
    ]
    for engine in args.engines.split(","):
        lines.extend(_engine(engine.strip(), args.rounds, args.time_limit))
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    if args.out is not None:
        args.out.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
