"""Queries an incident analyst writes (``tests/data/sql/analyst_*.jsonl``): at most 2% of
them may be refused on their own dialect (a SQLite datasource takes the MySQL set)."""

from __future__ import annotations

import pytest
from returns.result import Failure

from factledger.domain.sql.policy import SqlDialect
from factledger.domain.sql.validator import validate_sql
from tests.unit.sql.corpus import CORPUS_NOW, corpus_policy, load_cases

ANALYST_FILES: dict[SqlDialect, str] = {
    "mysql": "analyst_mysql.jsonl",
    "sqlite": "analyst_mysql.jsonl",
    "postgres": "analyst_postgres.jsonl",
}


@pytest.mark.parametrize("dialect", list(ANALYST_FILES))
def test_at_most_two_percent_of_the_analyst_queries_are_refused(dialect: SqlDialect) -> None:
    queries = load_cases(ANALYST_FILES[dialect])
    assert len(queries) >= 80
    refused = [
        (case.case_id, result.failure().code.value)
        for case in queries
        if isinstance(result := validate_sql(corpus_policy(dialect), case.sql, CORPUS_NOW), Failure)
    ]
    assert len(refused) <= len(queries) * 0.02, refused


def test_mysql_analyst_queries_on_a_sqlite_datasource_are_refused_only_for_a_function() -> None:
    # SQLite runs MySQL syntax transpiled; what it cannot express it refuses as such, never
    # for another reason.
    policy = corpus_policy("sqlite")
    codes = {
        result.failure().code.value
        for case in load_cases(ANALYST_FILES["mysql"])
        if isinstance(result := validate_sql(policy, case.sql, CORPUS_NOW), Failure)
    }
    assert codes <= {"UNSUPPORTED_ON_DATASOURCE"}
