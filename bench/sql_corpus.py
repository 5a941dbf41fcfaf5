"""SQL sandbox decisions: bypasses of the red-team corpus and false rejects of analyst queries.

    .venv/bin/python bench/sql_corpus.py [--json]

Per dialect (MySQL/MariaDB, PostgreSQL, SQLite), with the validator the SQL tool runs and the
corpus policy (``tests/data/sql/policy.toml``), NOW() bound to the corpus instant:

- bypasses: red-team cases labelled ``reject`` that the validator accepts (target 0);
- false rejects: analyst queries (``tests/data/sql/analyst_*.jsonl``, a SQLite datasource takes
  the MySQL set) and corpus cases labelled ``accept`` that it refuses (target ≤ 2 %).

Decisions, not timings; ``bench/sql_validator.py`` measures the speed.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from returns.result import Failure  # noqa: E402

from factledger.domain.sql.policy import SqlDialect  # noqa: E402
from factledger.domain.sql.validator import validate_sql  # noqa: E402
from tests.unit.sql.corpus import CORPUS_NOW, Case, corpus_policy, load_cases, load_corpus  # noqa: E402
from tests.unit.sql.test_analyst_queries import ANALYST_FILES  # noqa: E402

DIALECTS: tuple[SqlDialect, ...] = ("mysql", "postgres", "sqlite")


@dataclass(frozen=True)
class Figures:
    """The decisions of one dialect."""

    dialect: str
    red_team_cases: int
    bypasses: list[str]
    analyst_queries: int
    analyst_refused: list[str]
    accept_cases: int
    accept_refused: list[str]


def _refused(dialect: SqlDialect, case: Case) -> bool:
    return isinstance(validate_sql(corpus_policy(dialect), case.sql, CORPUS_NOW), Failure)


def figures(dialect: SqlDialect) -> Figures:
    """The decisions of one dialect (a SQLite datasource also takes the MySQL corpus)."""
    corpus = load_corpus(dialect) + (load_corpus("mysql") if dialect == "sqlite" else ())
    reject = [case for case in corpus if case.label == "reject"]
    accept = [case for case in corpus if case.label == "accept"]
    analyst = load_cases(ANALYST_FILES[dialect])
    return Figures(
        dialect=dialect,
        red_team_cases=len(reject),
        bypasses=[case.case_id for case in reject if not _refused(dialect, case)],
        analyst_queries=len(analyst),
        analyst_refused=[case.case_id for case in analyst if _refused(dialect, case)],
        accept_cases=len(accept),
        accept_refused=[case.case_id for case in accept if _refused(dialect, case)],
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per dialect")
    args = parser.parse_args()
    for dialect in DIALECTS:
        row = figures(dialect)
        if args.json:
            print(json.dumps(asdict(row)))
            continue
        share = 100 * len(row.analyst_refused) / row.analyst_queries
        print(
            f"{dialect:<9} bypasses {len(row.bypasses)}/{row.red_team_cases}   "
            f"analyst false rejects {len(row.analyst_refused)}/{row.analyst_queries} "
            f"({share:.1f} %)   accept-labelled refused "
            f"{len(row.accept_refused)}/{row.accept_cases}"
        )
        for case_id in [*row.bypasses, *row.analyst_refused]:
            print(f"          {case_id}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
