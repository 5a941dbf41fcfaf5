"""The scan before parsing: quotes understood, comments and nesting refused early."""

from __future__ import annotations

import pytest
from returns.pipeline import is_successful

from factledger.domain.sql.prescan import prescan
from factledger.domain.sql.refusal import RefusalCode


def scan(text: str) -> str | RefusalCode:
    result = prescan(text, max_length=4000, max_nesting=16)
    if is_successful(result):
        return result.unwrap()
    return result.failure().code


@pytest.mark.parametrize(
    "text",
    [
        "SELECT '--', '#', '/*!50000 x */', ';' FROM t",
        "SELECT \"it\"\"s\", 'it''s' FROM t",
        "SELECT `odd``name` FROM t",
    ],
)
def test_comment_and_statement_markers_inside_quotes_are_text(text: str) -> None:
    assert scan(text) == text


def test_one_trailing_semicolon_is_dropped() -> None:
    assert scan("SELECT a FROM t ;  \n") == "SELECT a FROM t "


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("SELECT a /*! b */", RefusalCode.VERSIONED_COMMENT),
        ("SELECT a /*M!100500 b */", RefusalCode.VERSIONED_COMMENT),
        ("SELECT /*+ BKA(t) */ a", RefusalCode.OPTIMIZER_HINT),
        ("SELECT a -- x", RefusalCode.COMMENT),
        ("SELECT a # x", RefusalCode.COMMENT),
        ("SELECT 'a", RefusalCode.UNTERMINATED_QUOTE),
        ("SELECT 'a\\'", RefusalCode.BACKSLASH_ESCAPE),
        ("SELECT 'a\tb'", RefusalCode.CONTROL_CHARACTER),
        ("SELECT a\u2028FROM t", RefusalCode.CONTROL_CHARACTER),
        ("SELECT 1; SELECT 2", RefusalCode.MULTI_STATEMENT),
        ("UPDATE t SET a = 1", RefusalCode.NOT_A_SELECT),
        ("'SELECT'", RefusalCode.NOT_A_SELECT),
        (";", RefusalCode.EMPTY_QUERY),
    ],
)
def test_refusals_before_parsing(text: str, code: RefusalCode) -> None:
    assert scan(text) is code


def test_length_is_checked_first() -> None:
    assert prescan("SELECT 1", max_length=5, max_nesting=16).failure().code is (
        RefusalCode.QUERY_TOO_LONG
    )


def test_nesting_counts_parentheses_case_and_prefix_operators() -> None:
    assert isinstance(scan("SELECT " + "(" * 16 + "1" + ")" * 16), str)
    assert scan("SELECT " + "(" * 17 + "1" + ")" * 17) is RefusalCode.NESTING_TOO_DEEP
    assert scan("SELECT " + "NOT " * 17 + "1") is RefusalCode.NESTING_TOO_DEEP
    assert scan("SELECT " + "- " * 17 + "1") is RefusalCode.NESTING_TOO_DEEP
    deep_case = "SELECT " + "CASE WHEN 1 THEN " * 17 + "1" + " END" * 17
    assert scan(deep_case) is RefusalCode.NESTING_TOO_DEEP
    assert scan("SELECT " + "(NOT " * 9 + "1" + ")" * 9) is RefusalCode.NESTING_TOO_DEEP


def test_infix_not_and_siblings_do_not_add_up() -> None:
    many = ", ".join(["-a"] * 40)
    assert isinstance(scan(f"SELECT {many} FROM t"), str)
    conditions = " AND ".join(["a NOT IN (1)"] * 30)
    assert isinstance(scan(f"SELECT a FROM t WHERE {conditions}"), str)
