"""Whatever text arrives, the validator answers with a plan or a refusal: it never raises."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from factledger.domain.sql.render import parse_mysql
from factledger.domain.sql.validator import validate_sql
from tests.unit.sql.corpus import corpus_policy

POLICY = corpus_policy()

TOKENS = (
    "SELECT", "FROM", "WHERE", "JOIN", "ON", "GROUP BY", "ORDER BY", "HAVING", "LIMIT", "UNION",
    "WITH", "AS", "AND", "OR", "NOT", "IN", "EXISTS", "CASE", "WHEN", "THEN", "END", "INTO",
    "FOR UPDATE", "(", ")", ",", ";", "*", "=", "<", "+", "-", "'x'", '"y"', "`id`", "1", "2.5",
    "@v", "@@version", "/*!", "*/", "--", "#", "orders", "users", "id", "status", "api_token",
    "password_hash", "o", "u", "o.id", "u.api_token", "COUNT(*)", "SLEEP(1)", "NOW()",
    "information_schema.tables", "\\", "\n", "\u200b", "\u0430",
)  # fmt: skip


def _property_holds(text: str) -> None:
    result = validate_sql(POLICY, text)
    plan = result.value_or(None)
    if plan is None:
        assert result.failure().code.value
        return
    assert "\\" not in plan.sql
    assert parse_mysql(plan.sql).unwrap().sql(dialect="mysql") == plan.sql
    assert validate_sql(POLICY, plan.sql).value_or(None) is not None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_gets_a_plan_or_a_refusal(text: str) -> None:
    _property_holds(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_arbitrary_token_soup_gets_a_plan_or_a_refusal(tokens: list[str]) -> None:
    _property_holds(" ".join(tokens))


@settings(max_examples=100, deadline=None)
@given(
    st.integers(min_value=0, max_value=2000),
    st.sampled_from(["(", "NOT ", "- ", "CASE WHEN 1 THEN "]),
)
def test_deep_nesting_of_any_kind_is_refused_cleanly(depth: int, opener: str) -> None:
    _property_holds("SELECT " + opener * depth + "1")
