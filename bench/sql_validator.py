"""SQL validator benchmark: validate + plan + regenerate, against sqlglot's own speed.

    .venv/bin/python bench/sql_validator.py [--rounds N] [--seconds S] [--out FILE]

Measures, in one run and on the same typical diagnosis queries (filters, aggregates, joins,
window functions, date arithmetic, CTEs, subqueries, a sensitive projection):
- ``validate_sql``: pre-scan, parse, allowlist walk, name resolution, LIMIT clamp, and the
  regenerate → re-parse → regenerate fixed point; statements per second;
- sqlglot parse only (``sqlglot.parse_one(sql, read="mysql")``), the reference;
- sqlglot's round trip alone (parse → generate → parse → generate).
Each figure is the median of ``--rounds`` rounds of about ``--seconds`` seconds each.
Pure Python, one thread.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import sqlglot

from factledger.domain.sql.policy import SqlPolicy, TablePolicy
from factledger.domain.sql.validator import validate_sql

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
)


def _rate(work: Callable[[str], object], seconds: float) -> float:
    """Statements per second over at least ``seconds`` of whole passes over QUERIES."""
    done = 0
    started = time.perf_counter()
    while True:
        for sql in QUERIES:
            work(sql)
        done += len(QUERIES)
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return done / elapsed


def _validate(sql: str) -> object:
    result = validate_sql(POLICY, sql)
    result.unwrap()
    return result


def _parse(sql: str) -> object:
    return sqlglot.parse_one(sql, read="mysql")


def _round_trip(sql: str) -> object:
    text = sqlglot.parse_one(sql, read="mysql").sql(dialect="mysql")
    again = sqlglot.parse_one(text, read="mysql").sql(dialect="mysql")
    assert again == text
    return again


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)

    for sql in QUERIES:  # every benchmark query is accepted, and warm-up
        _validate(sql)
    measured: dict[str, list[float]] = {"validate": [], "parse": [], "round_trip": []}
    for _ in range(args.rounds):
        measured["validate"].append(_rate(_validate, args.seconds))
        measured["parse"].append(_rate(_parse, args.seconds))
        measured["round_trip"].append(_rate(_round_trip, args.seconds))
    medians = {name: statistics.median(rates) for name, rates in measured.items()}

    lines = [
        f"python {platform.python_version()} ({platform.python_implementation()}), "
        f"sqlglot {version('sqlglot')}, {len(QUERIES)} queries, "
        f"{args.rounds} rounds of ~{args.seconds:g}s, medians",
        "",
        "| measure | statements/s (median) | min | max |",
        "|---|---:|---:|---:|",
    ]
    labels = {
        "validate": "validate + plan + regenerate (`validate_sql`)",
        "parse": "sqlglot parse only (reference)",
        "round_trip": "sqlglot parse → generate → parse → generate",
    }
    for name, label in labels.items():
        rates = measured[name]
        lines.append(f"| {label} | {medians[name]:.0f} | {min(rates):.0f} | {max(rates):.0f} |")
    lines.append("")
    lines.append(
        f"validate_sql costs {medians['parse'] / medians['validate']:.2f}× a parse "
        f"and {medians['round_trip'] / medians['validate']:.2f}× the bare round trip."
    )
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    if args.out is not None:
        args.out.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
