"""SQL validator benchmark: validate + plan + regenerate, against sqlglot's own speed.

    .venv/bin/python bench/sql_validator.py [--rounds N] [--seconds S] [--out FILE]

Measures, in one run and on the same typical diagnosis queries (filters, aggregates, joins,
window functions, date arithmetic, CTEs, subqueries, a sensitive projection, NOW() windows,
comments, an alias that shadows its column), in MySQL syntax and in PostgreSQL syntax:
- ``validate_sql``: pre-scan and comment stripping, parse, binding NOW() to an instant,
  allowlist walk, name resolution with the join and alias rules, LIMIT clamp, and the
  regenerate → re-parse → regenerate fixed point; statements per second;
- sqlglot parse only (``sqlglot.parse_one(sql, read=dialect)``), the reference;
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
    """Statements per second over at least ``seconds`` of whole passes over ``queries``."""
    done = 0
    started = time.perf_counter()
    while True:
        for sql in queries:
            work(sql)
        done += len(queries)
        elapsed = time.perf_counter() - started
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    lines = [
        f"python {platform.python_version()} ({platform.python_implementation()}), "
        f"sqlglot {version('sqlglot')}, {args.rounds} rounds of ~{args.seconds:g}s, medians",
        "",
    ]
    for dialect in _SETS:
        lines.extend(_report(dialect, _measure(dialect, args.rounds, args.seconds)))
    report = "\n".join(lines)
    sys.stdout.write(report)
    if args.out is not None:
        args.out.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
