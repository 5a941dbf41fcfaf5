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
        ("SELECT a --x", RefusalCode.COMMENT),
        ("SELECT a /* x /* y */ z */", RefusalCode.COMMENT),
        ("SELECT a /* x", RefusalCode.COMMENT),
        ("SELECT a */", RefusalCode.COMMENT),
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


@pytest.mark.parametrize(
    ("text", "stripped"),
    [
        ("SELECT a -- x", "SELECT a  "),
        ("SELECT a # x\nFROM t", "SELECT a  \nFROM t"),
        ("SELECT /* the id */ a FROM t", "SELECT   a FROM t"),
        ("SELECT a FROM t -- done;", "SELECT a FROM t  "),
        ("SELECT a FROM t; -- done", "SELECT a FROM t"),
        ("SELECT '-- not a comment', '#', '/* no */' FROM t", None),
        ("-- count them\nSELECT a FROM t", " \nSELECT a FROM t"),
    ],
)
def test_plain_comments_are_blanked_out_and_quoted_text_is_kept(
    text: str, stripped: str | None
) -> None:
    assert scan(text) == (text if stripped is None else stripped)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("SELECT $$x$$", RefusalCode.FORBIDDEN_SYNTAX),
        ("SELECT $1", RefusalCode.FORBIDDEN_SYNTAX),
        ('SELECT U&"d0061t" FROM t', RefusalCode.BAD_IDENTIFIER),
        ("SELECT u&'x'", RefusalCode.BAD_IDENTIFIER),
        ("SELECT 1; COMMIT", RefusalCode.MULTI_STATEMENT),
        ("SELECT a /*+ SeqScan(t) */ FROM t", RefusalCode.OPTIMIZER_HINT),
        ("COPY t TO '/tmp/x'", RefusalCode.NOT_A_SELECT),
        ("DO 'BEGIN END'", RefusalCode.NOT_A_SELECT),
        ("EXPLAIN ANALYZE SELECT 1", RefusalCode.NOT_A_SELECT),
    ],
)
def test_postgresql_lexemes_the_validator_does_not_take(text: str, code: RefusalCode) -> None:
    refused = prescan(text, max_length=4000, max_nesting=16, dialect="postgres")
    assert refused.failure().code is code


def test_postgresql_comments_and_double_quoted_names() -> None:
    scanned = prescan(
        'SELECT "status" -- a name\nFROM t WHERE a = 1--2', 4000, 16, dialect="postgres"
    )
    assert scanned.unwrap() == 'SELECT "status"  \nFROM t WHERE a = 1 '


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
