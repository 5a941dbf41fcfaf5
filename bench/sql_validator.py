"""SQL validator benchmark: validate + plan + regenerate, against sqlglot's own speed.

    .venv/bin/python bench/sql_validator.py [--rounds N] [--seconds S] [--out FILE]
                                            [--baseline GIT_REV]

Measures, in one run and on the same typical diagnosis queries (filters, aggregates, joins,
window functions, date arithmetic, CTEs, subqueries, a sensitive projection, NOW() windows,
comments, an alias that shadows its column), in MySQL syntax and in PostgreSQL syntax:
- ``validate_sql``: pre-scan and comment stripping, parse, binding NOW() to an instant,
  allowlist walk, name resolution with the join and alias rules, LIMIT clamp, and the
  regenerate → re-parse → regenerate fixed point; statements per second;
- sqlglot parse only (``sqlglot.parse_one(sql, read=dialect)``), the reference;
- sqlglot's round trip alone (parse → generate → parse → generate);
- with ``--baseline REV``: the validator of another revision (its ``domain/sql`` read with
  ``git show``), on the MySQL queries that revision accepts, alternating with this one.
Each figure is the median of ``--rounds`` rounds of about ``--seconds`` seconds of this
process's CPU time each (statements per CPU second). Pure Python, one thread.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import sqlglot
from attrs import evolve

from factledger.domain.sql.policy import SqlPolicy, TablePolicy
from factledger.domain.sql.validator import validate_sql

NOW = datetime(2024, 5, 1, 11, 0, tzinfo=UTC)
POLICY = SqlPolicy(
    datasource="payments",
    dialect="mysql",
    schema="payments",
    tables=(
        TablePolicy("orders", ("id", "status", "amount", "created_at", "user_id")),
        TablePolicy(
            "users",
            ("id", "name", "email", "password_hash", "api_token"),
            frozenset({"password_hash", "api_token"}),
        ),
        TablePolicy(
            "payments_log", ("id", "order_id", "service", "outcome", "latency_ms", "created_at")
        ),
    ),
)

QUERIES = (
    "SELECT id, status, amount FROM orders WHERE status = 'failed' "
    "AND created_at >= '2024-05-01 10:00:00' ORDER BY created_at DESC LIMIT 50",
    "SELECT status, COUNT(*) AS n, SUM(amount) AS total FROM orders "
    "WHERE created_at BETWEEN '2024-05-01 10:00:00' AND '2024-05-01 11:00:00' "
    "GROUP BY status ORDER BY n DESC",
    "SELECT o.id, o.status, u.name FROM orders o JOIN users u ON u.id = o.user_id "
    "WHERE o.status IN ('failed', 'timeout') ORDER BY o.created_at DESC LIMIT 20",
    "SELECT p.service, p.outcome, COUNT(*) AS n, MAX(p.latency_ms) AS worst "
    "FROM payments_log p WHERE p.created_at >= '2024-05-01 10:00:00' "
    "GROUP BY p.service, p.outcome HAVING MAX(p.latency_ms) > 1000 ORDER BY n DESC",
    "SELECT id, user_id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY created_at) "
    "AS attempt FROM orders WHERE status <> 'paid'",
    "SELECT DATE_FORMAT(created_at, '%Y-%m-%d %H:00') AS hour, COUNT(*) AS n FROM orders "
    "WHERE created_at >= DATE_SUB('2024-05-02 00:00:00', INTERVAL 1 DAY) "
    "GROUP BY hour ORDER BY hour",
    "WITH failed AS (SELECT user_id, COUNT(*) AS n FROM orders WHERE status = 'failed' "
    "GROUP BY user_id) SELECT u.name, f.n FROM failed f JOIN users u ON u.id = f.user_id "
    "ORDER BY f.n DESC LIMIT 10",
    "SELECT o.id, TIMESTAMPDIFF(SECOND, o.created_at, p.created_at) AS delay_s "
    "FROM orders o JOIN payments_log p ON p.order_id = o.id WHERE p.outcome = 'timeout'",
    "SELECT id FROM orders WHERE amount > (SELECT AVG(amount) FROM orders) "
    "AND NOT EXISTS (SELECT 1 FROM payments_log p WHERE p.order_id = orders.id)",
    "SELECT u.id, u.name, u.api_token FROM users u WHERE u.email LIKE '%@example.com'",
    "SELECT status, COUNT(*) AS n FROM orders WHERE created_at >= NOW() - INTERVAL 1 HOUR "
    "GROUP BY status ORDER BY n DESC",
    "-- failures in the window\nSELECT id, TIMESTAMPDIFF(SECOND, created_at, NOW()) AS age "
    "FROM orders WHERE status = 'failed' # newest first\nORDER BY created_at DESC LIMIT 20",
    "SELECT COALESCE(status, 'unknown') AS status, COUNT(*) AS n FROM orders "
    "GROUP BY status ORDER BY status",
)
POSTGRES = evolve(POLICY, dialect="postgres", schema="public")
POSTGRES_QUERIES = (
    "SELECT id, status, amount FROM orders WHERE status = 'failed' "
    "AND created_at >= now() - interval '1 hour' ORDER BY created_at DESC LIMIT 50",
    "SELECT date_trunc('hour', created_at) AS hour, count(*) FILTER (WHERE status = 'failed') "
    "AS failed, count(*) AS total FROM orders GROUP BY 1 ORDER BY 1",
    "SELECT o.id, o.status, u.name FROM orders o JOIN users u ON u.id = o.user_id "
    "WHERE o.status IN ('failed', 'timeout') ORDER BY o.created_at DESC LIMIT 20",
    "SELECT service, percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95 "
    "FROM payments_log WHERE created_at > now() - interval '6 hours' GROUP BY service",
    "SELECT DISTINCT ON (user_id) user_id, id, created_at FROM orders "
    "ORDER BY user_id, created_at DESC",
    "WITH failed AS (SELECT user_id, count(*) AS n FROM orders WHERE status = 'failed' "
    "GROUP BY user_id) SELECT u.name, f.n FROM failed f JOIN users u ON u.id = f.user_id "
    "ORDER BY f.n DESC LIMIT 10",
    "-- slow payments\nSELECT o.id, extract(epoch FROM p.created_at - o.created_at) AS delay_s "
    "FROM orders o JOIN payments_log p ON p.order_id = o.id WHERE p.outcome = 'timeout'",
    "SELECT id FROM orders WHERE amount > (SELECT avg(amount) FROM orders) "
    "AND NOT EXISTS (SELECT 1 FROM payments_log p WHERE p.order_id = orders.id)",
)


def _rate(work: Callable[[str], object], seconds: float, queries: tuple[str, ...]) -> float:
    """Statements per CPU second of this process over at least ``seconds`` of it, in whole
    passes over ``queries`` (CPU time, so that other work on the machine weighs less)."""
    done = 0
    started = time.process_time()
    while True:
        for sql in queries:
            work(sql)
        done += len(queries)
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return done / elapsed


def _validator(policy: SqlPolicy) -> Callable[[str], object]:
    def validate(sql: str) -> object:
        result = validate_sql(policy, sql, NOW)
        result.unwrap()
        return result

    return validate


def _parser(dialect: str) -> Callable[[str], object]:
    def parse(sql: str) -> object:
        return sqlglot.parse_one(sql, read=dialect)

    return parse


def _round_tripper(dialect: str) -> Callable[[str], object]:
    def round_trip(sql: str) -> object:
        text = sqlglot.parse_one(sql, read=dialect).sql(dialect=dialect)
        again = sqlglot.parse_one(text, read=dialect).sql(dialect=dialect)
        assert again == text
        return again

    return round_trip


_SETS = {
    "mysql": (POLICY, QUERIES),
    "postgres": (POSTGRES, POSTGRES_QUERIES),
}


def _measure(dialect: str, rounds: int, seconds: float) -> dict[str, list[float]]:
    policy, queries = _SETS[dialect]
    validate = _validator(policy)
    for sql in queries:  # every benchmark query is accepted, and warm-up
        validate(sql)
    measured: dict[str, list[float]] = {"validate": [], "parse": [], "round_trip": []}
    for _ in range(rounds):
        measured["validate"].append(_rate(validate, seconds, queries))
        measured["parse"].append(_rate(_parser(dialect), seconds, queries))
        measured["round_trip"].append(_rate(_round_tripper(dialect), seconds, queries))
    return measured


def _report(dialect: str, measured: dict[str, list[float]]) -> list[str]:
    medians = {name: statistics.median(rates) for name, rates in measured.items()}
    labels = {
        "validate": "validate + plan + regenerate (`validate_sql`)",
        "parse": "sqlglot parse only (reference)",
        "round_trip": "sqlglot parse → generate → parse → generate",
    }
    lines = [
        f"{dialect}: {len(_SETS[dialect][1])} queries",
        "",
        "| measure | statements/s (median) | min | max |",
        "|---|---:|---:|---:|",
    ]
    for name, label in labels.items():
        rates = measured[name]
        lines.append(f"| {label} | {medians[name]:.0f} | {min(rates):.0f} | {max(rates):.0f} |")
    lines.append("")
    lines.append(
        f"validate_sql costs {medians['parse'] / medians['validate']:.2f}× a parse "
        f"and {medians['round_trip'] / medians['validate']:.2f}× the bare round trip."
    )
    lines.append("")
    return lines


def _baseline_validator(revision: str, folder: Path) -> Callable[[str], object]:
    """The ``validate_sql`` of another revision, loaded as the package ``baseline_sql``."""
    package = folder / "baseline_sql"
    package.mkdir()
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{revision}:domain/sql"],
        check=True, capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    for name in names:
        if name.endswith(".py"):
            text = subprocess.run(
                ["git", "show", f"{revision}:domain/sql/{name}"],
                check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
            (package / name).write_text(text.replace("factledger.domain.sql.", "baseline_sql."))
    sys.path.insert(0, str(folder))
    validator = importlib.import_module("baseline_sql.validator")
    policy_module = importlib.import_module("baseline_sql.policy")
    policy = policy_module.SqlPolicy(
        datasource=POLICY.datasource,
        dialect="mysql",
        schema=POLICY.schema,
        tables=tuple(
            policy_module.TablePolicy(t.name, t.columns, t.sensitive) for t in POLICY.tables
        ),
    )

    def validate(sql: str) -> object:
        return validator.validate_sql(policy, sql).unwrap()

    return validate


def _compare(revision: str, rounds: int, seconds: float) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        baseline = _baseline_validator(revision, Path(folder))
        common = []
        for sql in QUERIES:
            try:
                baseline(sql)
            except Exception:  # a query the older rules refuse is left out
                continue
            common.append(sql)
        shared = tuple(common)
        current = _validator(POLICY)
        ours: list[float] = []
        theirs: list[float] = []
        for _ in range(rounds):
            ours.append(_rate(current, seconds, shared))
            theirs.append(_rate(baseline, seconds, shared))
    ratio = statistics.median(ours) / statistics.median(theirs)
    return [
        f"baseline {revision}: {len(shared)} MySQL queries both accept, alternating rounds",
        "",
        "| validator | statements/s (median) | min | max |",
        "|---|---:|---:|---:|",
        f"| this revision | {statistics.median(ours):.0f} | {min(ours):.0f} | {max(ours):.0f} |",
        f"| {revision} | {statistics.median(theirs):.0f} | {min(theirs):.0f} | {max(theirs):.0f} |",
        "",
        f"this revision runs at {ratio:.2f}× the speed of {revision}.",
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--baseline", default=None, metavar="GIT_REV")
    args = parser.parse_args(argv)
    lines = [
        f"python {platform.python_version()} ({platform.python_implementation()}), "
        f"sqlglot {version('sqlglot')}, {args.rounds} rounds of ~{args.seconds:g}s, medians",
        "",
    ]
    for dialect in _SETS:
        lines.extend(_report(dialect, _measure(dialect, args.rounds, args.seconds)))
    if args.baseline is not None:
        lines.extend(_compare(args.baseline, args.rounds, args.seconds))
    report = "\n".join(lines)
    sys.stdout.write(report)
    if args.out is not None:
        args.out.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
