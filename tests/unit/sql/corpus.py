"""The red-team corpus: labelled SQL strings in ``tests/data/sql/corpus.jsonl``.

Each line is one case: ``id``, ``label`` (``accept`` or ``reject``), ``category``, the query
as ``sql`` or as ``parts`` (``[text, times]`` pairs, for inputs too large to write out), and
for a rejected query the ``reason`` code it must be refused with. The allowlist it is checked
against is ``tests/data/sql/policy.toml``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from attrs import frozen

from factledger.adapters.config.sql import load_sql_settings
from factledger.adapters.sql.policy import policy_from_settings
from factledger.domain.sql.policy import SqlDialect, SqlPolicy

SQL_DATA = Path(__file__).resolve().parents[2] / "data" / "sql"
CORPUS_NOW = datetime(2024, 5, 1, 11, 0, 0, tzinfo=UTC)
"""The instant every corpus query's NOW() is bound to (an hour after the test data's last
order)."""


@frozen
class Case:
    """One labelled query."""

    case_id: str
    label: Literal["accept", "reject"]
    category: str
    sql: str
    reason: str | None


CORPUS_FILES: dict[SqlDialect, str] = {
    "mysql": "corpus.jsonl",
    "sqlite": "corpus_sqlite.jsonl",
    "postgres": "corpus_postgres.jsonl",
}
"""The red-team corpus of each dialect (SQLite's holds the SQLite-specific cases; the MySQL
corpus is run against a SQLite datasource too)."""


def load_corpus(dialect: SqlDialect = "mysql") -> tuple[Case, ...]:
    """Every case of a dialect's corpus, in file order."""
    return load_cases(CORPUS_FILES[dialect])


def load_cases(file_name: str) -> tuple[Case, ...]:
    """Every case of one JSON-lines file of ``tests/data/sql``, in file order."""
    cases: list[Case] = []
    for line in (SQL_DATA / file_name).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        if "parts" in entry:
            sql = "".join(str(text) * int(times) for text, times in entry["parts"])
        else:
            sql = entry["sql"]
        label = entry["label"]
        assert label in ("accept", "reject"), entry["id"]
        cases.append(Case(entry["id"], label, entry["category"], sql, entry.get("reason")))
    return tuple(cases)


def corpus_policy(dialect: SqlDialect = "mysql") -> SqlPolicy:
    """The allowlist the corpus is written against."""
    settings = load_sql_settings(SQL_DATA / "policy.toml").unwrap()
    policy = policy_from_settings(settings.datasources[0])
    if dialect == policy.dialect:
        return policy
    return SqlPolicy(
        datasource=policy.datasource,
        dialect=dialect,
        tables=policy.tables,
        schema="public" if dialect == "postgres" else policy.schema,
        limits=policy.limits,
    )


def cases(label: Literal["accept", "reject"], dialect: SqlDialect = "mysql") -> tuple[Case, ...]:
    return tuple(case for case in load_corpus(dialect) if case.label == label)
