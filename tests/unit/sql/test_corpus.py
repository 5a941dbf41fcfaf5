"""The red-team corpus: every must-reject string is refused for its reason, before any
database is touched; every must-accept string becomes a plan."""

from __future__ import annotations

from collections import Counter

import pytest
from returns.result import Failure, Result, Success

from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.sql.tool import SqlDatasource, SqlTool
from factledger.domain.sql.plan import QueryPlan
from factledger.domain.sql.render import parse_mysql, parse_statement
from factledger.domain.sql.validator import validate_sql
from factledger.domain.tool_result import BackendFailureKind
from factledger.ports.sql import SqlExecutionFailure
from tests.unit.sql.corpus import CORPUS_NOW, Case, cases, corpus_policy, load_corpus

REJECTS = cases("reject")
ACCEPTS = cases("accept")


class RecordingExecutor:
    """Stands in for a database and remembers every plan it was handed."""

    def __init__(self) -> None:
        self.plans: list[QueryPlan] = []

    @property
    def datasource(self) -> str:
        return "payments"

    def execute(
        self, plan: QueryPlan, time_limit_seconds: float
    ) -> Result[str, SqlExecutionFailure]:
        self.plans.append(plan)
        return Success("{}")

    def close(self) -> None:
        pass


def test_the_corpus_has_at_least_150_labelled_strings_covering_every_category() -> None:
    corpus = load_corpus()
    assert len(corpus) >= 150
    assert len({case.case_id for case in corpus}) == len(corpus)
    categories = Counter(case.category for case in REJECTS)
    for category in (
        "multi-statement", "comment", "into", "locking", "variable", "metadata", "statement",
        "function", "wildcard", "unlisted", "join", "sensitive", "oracle", "size", "escape",
    ):  # fmt: skip
        assert categories[category] >= 5, category
    assert len(ACCEPTS) >= 50


@pytest.mark.parametrize("case", REJECTS, ids=lambda case: case.case_id)
def test_a_must_reject_string_is_refused_with_its_reason(case: Case) -> None:
    result = validate_sql(corpus_policy(), case.sql, CORPUS_NOW)
    assert isinstance(result, Failure), result
    assert result.failure().code.value == case.reason


@pytest.mark.parametrize("case", ACCEPTS, ids=lambda case: case.case_id)
def test_a_must_accept_string_becomes_a_plan_whose_sql_is_a_fixed_point(case: Case) -> None:
    plan = validate_sql(corpus_policy(), case.sql, CORPUS_NOW).unwrap()
    assert parse_mysql(plan.sql).unwrap().sql(dialect="mysql") == plan.sql
    again = validate_sql(corpus_policy(), plan.sql, CORPUS_NOW).unwrap()
    assert (again.tables, again.columns) == (plan.tables, plan.columns)
    assert again.output_columns == plan.output_columns


def test_no_must_reject_string_reaches_the_executor() -> None:
    executor = RecordingExecutor()
    tool = SqlTool({"payments": SqlDatasource(corpus_policy(), executor)}, ManualClock(CORPUS_NOW))
    for case in REJECTS:
        failure = tool.run("payments", case.sql, 1.0).failure()
        assert failure.kind is BackendFailureKind.INVALID_REQUEST
        assert failure.reason == case.reason
    assert executor.plans == []


def test_every_must_accept_string_reaches_the_executor_as_a_plan() -> None:
    executor = RecordingExecutor()
    tool = SqlTool({"payments": SqlDatasource(corpus_policy(), executor)}, ManualClock(CORPUS_NOW))
    for case in ACCEPTS:
        assert tool.run("payments", case.sql, 1.0) == Success("{}")
    assert len(executor.plans) == len(ACCEPTS)


POSTGRES_REJECTS = cases("reject", "postgres")
POSTGRES_ACCEPTS = cases("accept", "postgres")
SQLITE_REJECTS = cases("reject", "sqlite")
SQLITE_ACCEPTS = cases("accept", "sqlite")


def test_the_postgresql_corpus_covers_the_postgresql_attack_classes() -> None:
    categories = Counter(case.category for case in POSTGRES_REJECTS)
    for category in (
        "function", "metadata", "statement", "cte", "escape", "comment", "sensitive", "join",
        "unlisted", "locking", "size",
    ):  # fmt: skip
        assert categories[category] >= 3, category
    assert len(POSTGRES_REJECTS) >= 120


@pytest.mark.parametrize("case", POSTGRES_REJECTS, ids=lambda case: case.case_id)
def test_a_must_reject_postgresql_string_is_refused_with_its_reason(case: Case) -> None:
    result = validate_sql(corpus_policy("postgres"), case.sql, CORPUS_NOW)
    assert isinstance(result, Failure), result
    assert result.failure().code.value == case.reason


@pytest.mark.parametrize("case", POSTGRES_ACCEPTS, ids=lambda case: case.case_id)
def test_a_must_accept_postgresql_string_becomes_a_fixed_point_plan(case: Case) -> None:
    plan = validate_sql(corpus_policy("postgres"), case.sql, CORPUS_NOW).unwrap()
    assert plan.dialect == "postgres"
    assert parse_statement(plan.sql, "postgres").unwrap().sql(dialect="postgres") == plan.sql
    again = validate_sql(corpus_policy("postgres"), plan.sql, CORPUS_NOW).unwrap()
    assert (again.tables, again.columns) == (plan.tables, plan.columns)
    assert again.output_columns == plan.output_columns


@pytest.mark.parametrize("case", SQLITE_REJECTS, ids=lambda case: case.case_id)
def test_a_must_reject_sqlite_string_is_refused_with_its_reason(case: Case) -> None:
    result = validate_sql(corpus_policy("sqlite"), case.sql, CORPUS_NOW)
    assert isinstance(result, Failure), result
    assert result.failure().code.value == case.reason


@pytest.mark.parametrize("case", SQLITE_ACCEPTS, ids=lambda case: case.case_id)
def test_a_must_accept_sqlite_string_becomes_a_plan(case: Case) -> None:
    assert validate_sql(corpus_policy("sqlite"), case.sql, CORPUS_NOW).unwrap().dialect == "sqlite"


def test_no_mysql_must_reject_string_gets_through_on_a_sqlite_or_postgresql_datasource() -> None:
    # The same attack text sent to another engine's datasource: refused there too, if for
    # another reason (it may not even parse in PostgreSQL's syntax).
    for dialect in ("sqlite", "postgres"):
        policy = corpus_policy(dialect)
        passed = [
            case.case_id
            for case in REJECTS
            if not isinstance(validate_sql(policy, case.sql, CORPUS_NOW), Failure)
            # In PostgreSQL ``--`` always starts a comment (``1--1`` is ``1``): the text that
            # MySQL would read as ``1 - -1`` is harmless there and is simply stripped.
            and not (dialect == "postgres" and case.reason == "COMMENT" and "--" in case.sql)
        ]
        assert passed == [], dialect
