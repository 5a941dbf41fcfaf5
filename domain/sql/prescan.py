"""Checks on the raw query text, before any parser sees it; plain comments removed.

A parser that drops what it does not understand is the classic bypass: sqlglot reads
``/*! … */`` and ``/*M! … */`` as comments while MySQL executes their content, and it
recurses once per nesting level. So the text is scanned first with a small lexer that knows
the quoting and comment rules of the dialect the query is written in, and refused on:

* length, control and invisible characters, backslashes (which mean different things under
  ``NO_BACKSLASH_ESCAPES`` or in PostgreSQL's ``E''`` strings), an unterminated quote;
* version-conditional comments (``/*!``, ``/*M!``) and optimizer hints (``/*+``), a comment
  opened inside a comment (PostgreSQL nests them, MySQL does not), an unterminated comment,
  a stray ``*/``, and in MySQL a ``--`` that is not followed by white space (MySQL reads
  ``1--1`` as ``1 - -1``);
* in PostgreSQL, ``$`` outside quotes (dollar quoting, parameters) and ``U&`` escapes;
* a second statement (one trailing ``;`` is dropped);
* a first word other than SELECT or WITH (or an opening parenthesis);
* nesting deeper than the limit, counting parentheses, CASE … END and runs of prefix
  operators, so that the recursive parser is never asked to go deep.

Plain comments (``-- …``, ``# …`` in MySQL, ``/* … */``) are replaced by one space: the
parser never sees them and the regenerated SQL never carries them. Control characters, even
tab and newline, are refused inside quotes, so the regenerated SQL never needs an escape.
"""

from __future__ import annotations

import unicodedata

from returns.result import Failure, Result, Success

from factledger.domain.sql.policy import SourceDialect
from factledger.domain.sql.refusal import RefusalCode, SqlRefusal

__all__ = ["prescan"]

_ALLOWED_WHITESPACE = frozenset("\t\n\r ")
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_STRING_QUOTES: dict[SourceDialect, frozenset[str]] = {
    "mysql": frozenset("'\"`"),
    "postgres": frozenset("'\""),
}
_WORD_EXTRA: dict[SourceDialect, frozenset[str]] = {
    "mysql": frozenset("_$"),
    "postgres": frozenset("_"),
}
_PREFIX_SYMBOLS = frozenset("-+!~")
_OPERATOR_SYMBOLS = frozenset("=<>+-*/%!~&|^:,(")
_PREFIX_WORDS = frozenset({"NOT", "INTERVAL", "BINARY", "EXISTS"})
# Words after which the next token starts an operand (so NOT, -, + there are prefixes).
_OPERAND_STARTERS = frozenset(
    {
        "SELECT", "WHERE", "AND", "OR", "XOR", "NOT", "ON", "HAVING", "WHEN", "THEN", "ELSE",
        "CASE", "BY", "DISTINCT", "BETWEEN", "LIKE", "IN", "AS", "FROM", "JOIN", "LIMIT",
        "OFFSET", "DIV", "MOD", "INTERVAL", "BINARY", "EXISTS", "ALL", "ANY", "SOME",
        "RLIKE", "REGEXP", "ESCAPE", "SEPARATOR", "OVER", "PARTITION", "RETURN", "ILIKE",
        "FILTER",
    }
)  # fmt: skip


def prescan(
    text: str, max_length: int, max_nesting: int, dialect: SourceDialect = "mysql"
) -> Result[str, SqlRefusal]:
    """The text the parser may see (comments blanked, one trailing ``;`` removed), or why
    it may not see it."""
    if len(text) > max_length:
        return _refuse(RefusalCode.QUERY_TOO_LONG)
    checked = _characters(text)
    if checked is not None:
        return _refuse(checked)
    return _Scanner(text, max_nesting, dialect).scan()


def _characters(text: str) -> RefusalCode | None:
    for char in text:
        if char.isascii():
            if char == "\\":
                return RefusalCode.BACKSLASH_ESCAPE
            if (char < " " or char == "\x7f") and char not in _ALLOWED_WHITESPACE:
                return RefusalCode.CONTROL_CHARACTER
            continue
        category = unicodedata.category(char)
        if category in _FORBIDDEN_CATEGORIES:
            return RefusalCode.CONTROL_CHARACTER
    return None


def _refuse(code: RefusalCode) -> Result[str, SqlRefusal]:
    return Failure(SqlRefusal(code))


class _Scanner:
    """A single pass over the text with the dialect's quoting and comment rules."""

    def __init__(self, text: str, max_nesting: int, dialect: SourceDialect) -> None:
        self._text = text
        self._max_nesting = max_nesting
        self._dialect: SourceDialect = dialect
        self._quotes = _STRING_QUOTES[dialect]
        self._word_extra = _WORD_EXTRA[dialect]
        self._levels: list[int] = [0]
        """Prefix operators opened at each open level (the statement, a parenthesis, a CASE)."""
        self._first_word: str | None = None
        self._previous: str | None = None
        """The previous significant token: an upper-cased word, a symbol, or ``"operand"``."""
        self._kept: list[str] = []
        """The text so far, comments replaced by a space."""

    def scan(self) -> Result[str, SqlRefusal]:
        text = self._text
        index = 0
        end = len(text)
        while index < end:
            char = text[index]
            if char in _ALLOWED_WHITESPACE:
                start = index
                while index < end and text[index] in _ALLOWED_WHITESPACE:
                    index += 1
                self._kept.append(text[start:index])
                continue
            if not char.isascii() and unicodedata.category(char) == "Zs":
                return _refuse(RefusalCode.CONTROL_CHARACTER)
            comment = _comment_end(text, index, self._dialect)
            if isinstance(comment, RefusalCode):
                return _refuse(comment)
            if comment is not None:
                self._kept.append(" ")
                index = comment
                continue
            step = self._token(index)
            if isinstance(step, RefusalCode):
                return _refuse(step)
            if step < 0:
                return self._finish()
            self._kept.append(text[index:step])
            index = step
            if self._depth() > self._max_nesting:
                return _refuse(RefusalCode.NESTING_TOO_DEEP)
        return self._finish()

    def _token(self, index: int) -> int | RefusalCode:
        """The index after the token at ``index``; -1 for a final ``;``."""
        text = self._text
        char = text[index]
        if char in self._quotes:
            closed = self._skip_quoted(index)
            if closed is None:
                return RefusalCode.UNTERMINATED_QUOTE
            if isinstance(closed, RefusalCode):
                return closed
            self._previous = "operand"
            return closed
        if char == ";":
            if _has_more_than_comments(text, index + 1, self._dialect):
                return RefusalCode.MULTI_STATEMENT
            return -1
        if self._dialect == "postgres":
            refused = _postgres_refusal(text, index)
            if refused is not None:
                return refused
        if char.isalnum() or char in self._word_extra or not char.isascii():
            return self._word(index)
        refused = self._symbol(char)
        return refused if refused is not None else index + 1

    def _finish(self) -> Result[str, SqlRefusal]:
        statement = "".join(self._kept)
        if not statement.strip(" \t\n\r"):
            return _refuse(RefusalCode.EMPTY_QUERY)
        if self._first_word not in ("SELECT", "WITH", "("):
            return _refuse(RefusalCode.NOT_A_SELECT)
        return Success(statement)

    def _depth(self) -> int:
        return len(self._levels) - 1 + sum(self._levels)

    def _skip_quoted(self, start: int) -> int | RefusalCode | None:
        """The index after the closing quote; a doubled quote is an escaped quote."""
        text = self._text
        quote = text[start]
        if self._first_word is None:
            self._first_word = "quoted"
        index = start + 1
        end = len(text)
        while index < end:
            char = text[index]
            if char == quote:
                if index + 1 < end and text[index + 1] == quote:
                    index += 2
                    continue
                return index + 1
            if char < " ":
                return RefusalCode.CONTROL_CHARACTER
            index += 1
        return None

    def _word(self, start: int) -> int:
        text = self._text
        index = start
        end = len(text)
        while index < end and (
            text[index].isalnum() or text[index] in self._word_extra or not text[index].isascii()
        ):
            if not text[index].isascii() and unicodedata.category(text[index]) == "Zs":
                break
            index += 1
        word = text[start:index].upper()
        if self._first_word is None:
            self._first_word = word
        if word == "CASE":
            self._levels.append(0)
        elif word == "END" and len(self._levels) > 1:
            self._levels.pop()
            word = "operand"
        elif word in _PREFIX_WORDS and self._operand_expected():
            self._levels[-1] += 1
        elif word not in _OPERAND_STARTERS:
            word = "operand"
        self._previous = word
        return index

    def _symbol(self, char: str) -> RefusalCode | None:
        if self._first_word is None:
            self._first_word = char
        if char == "(":
            self._levels.append(0)
        elif char == ")":
            if len(self._levels) > 1:
                self._levels.pop()
            self._previous = "operand"
            return None
        elif char == ",":
            self._levels[-1] = 0
        elif char in _PREFIX_SYMBOLS and self._operand_expected():
            self._levels[-1] += 1
        elif char == "*" and self._previous in ("(", ",", "SELECT", "DISTINCT"):
            self._previous = "operand"
            return None
        self._previous = char if char in _OPERATOR_SYMBOLS else "operand"
        return None

    def _operand_expected(self) -> bool:
        previous = self._previous
        return previous is None or previous in _OPERATOR_SYMBOLS or previous in _OPERAND_STARTERS


def _postgres_refusal(text: str, index: int) -> RefusalCode | None:
    """PostgreSQL lexemes the validator does not take: ``$`` (dollar quoting, ``$1``
    parameters) and ``U&'…'`` / ``U&"…"`` Unicode escapes."""
    char = text[index]
    if char == "$":
        return RefusalCode.FORBIDDEN_SYNTAX
    if char in "uU" and text[index + 1 : index + 2] == "&":
        previous = text[index - 1] if index > 0 else " "
        if not (previous.isalnum() or previous == "_"):
            return RefusalCode.BAD_IDENTIFIER
    return None


def _comment_end(text: str, index: int, dialect: SourceDialect) -> int | RefusalCode | None:
    """Where the comment starting at ``index`` ends; None when no comment starts there."""
    char = text[index]
    following = text[index + 1 : index + 2]
    if char == "#" and dialect == "mysql":
        return _line_end(text, index)
    if char == "-" and following == "-":
        after = text[index + 2 : index + 3]
        if dialect == "mysql" and after and after not in _ALLOWED_WHITESPACE:
            return RefusalCode.COMMENT
        return _line_end(text, index)
    if char == "/" and following == "*":
        opener = text[index + 2 : index + 4]
        if opener.startswith("!") or opener.upper() == "M!":
            return RefusalCode.VERSIONED_COMMENT
        if opener.startswith("+"):
            return RefusalCode.OPTIMIZER_HINT
        closing = text.find("*/", index + 2)
        if closing < 0:
            return RefusalCode.COMMENT
        if text.find("/*", index + 2, closing) >= 0:
            return RefusalCode.COMMENT
        return closing + 2
    if char == "*" and following == "/":
        return RefusalCode.COMMENT
    return None


def _line_end(text: str, index: int) -> int:
    newline = text.find("\n", index)
    return len(text) if newline < 0 else newline


def _has_more_than_comments(text: str, index: int, dialect: SourceDialect) -> bool:
    """True when anything but white space and comments follows ``index``."""
    end = len(text)
    while index < end:
        if text[index] in _ALLOWED_WHITESPACE:
            index += 1
            continue
        comment = _comment_end(text, index, dialect)
        if comment is None or isinstance(comment, RefusalCode):
            return True
        index = comment
    return False
