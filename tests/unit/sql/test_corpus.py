"""The red-team corpus: every must-reject string is refused for its reason, before any
database is touched; every must-accept string becomes a plan."""

from __future__ import annotations

from collections import Counter

import pytest
from returns.result import Failure, Result, Success

from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.sql.tool import SqlDatasource, SqlTool
from factledger.domain.sql.plan import QueryPlan
from factledger.domain.sql.render import parse_mysql
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
