"""Checks on the raw query text, before any parser sees it.

A parser that drops what it does not understand is the classic bypass: sqlglot reads
``/*! … */`` and ``/*M! … */`` as comments while MySQL executes their content, and it
recurses once per nesting level. So the text is scanned first with a small lexer that
knows MySQL's quoting rules, and refused on:

* length, control and invisible characters, backslashes (which mean different things under
  ``NO_BACKSLASH_ESCAPES``), an unterminated quote;
* any comment (``#``, ``--``, ``/* */``), naming version-conditional comments and optimizer
  hints apart;
* a second statement (one trailing ``;`` is dropped);
* a first word other than SELECT or WITH (or an opening parenthesis);
* nesting deeper than the limit, counting parentheses, CASE … END and runs of prefix
  operators, so that the recursive parser is never asked to go deep.

Control characters, even tab and newline, are refused inside quotes, so the regenerated SQL
never needs an escape sequence.
"""

from __future__ import annotations

import unicodedata

from returns.result import Failure, Result, Success

from factledger.domain.sql.refusal import RefusalCode, SqlRefusal

__all__ = ["prescan"]

_ALLOWED_WHITESPACE = frozenset("\t\n\r ")
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_QUOTES = frozenset("'\"`")
_WORD_EXTRA = frozenset("_$")
_PREFIX_SYMBOLS = frozenset("-+!~")
_OPERATOR_SYMBOLS = frozenset("=<>+-*/%!~&|^:,(")
_PREFIX_WORDS = frozenset({"NOT", "INTERVAL", "BINARY", "EXISTS"})
# Words after which the next token starts an operand (so NOT, -, + there are prefixes).
_OPERAND_STARTERS = frozenset(
    {
        "SELECT", "WHERE", "AND", "OR", "XOR", "NOT", "ON", "HAVING", "WHEN", "THEN", "ELSE",
        "CASE", "BY", "DISTINCT", "BETWEEN", "LIKE", "IN", "AS", "FROM", "JOIN", "LIMIT",
        "OFFSET", "DIV", "MOD", "INTERVAL", "BINARY", "EXISTS", "ALL", "ANY", "SOME",
        "RLIKE", "REGEXP", "ESCAPE", "SEPARATOR", "OVER", "PARTITION", "RETURN",
    }
)  # fmt: skip


def prescan(text: str, max_length: int, max_nesting: int) -> Result[str, SqlRefusal]:
    """The text the parser may see (one trailing ``;`` removed), or why it may not."""
    if len(text) > max_length:
        return _refuse(RefusalCode.QUERY_TOO_LONG)
    checked = _characters(text)
    if checked is not None:
        return _refuse(checked)
    return _Scanner(text, max_nesting).scan()


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
    """A single pass over the text with MySQL's quoting and comment rules."""

    def __init__(self, text: str, max_nesting: int) -> None:
        self._text = text
        self._max_nesting = max_nesting
        self._levels: list[int] = [0]
        """Prefix operators opened at each open level (the statement, a parenthesis, a CASE)."""
        self._first_word: str | None = None
        self._previous: str | None = None
        """The previous significant token: an upper-cased word, a symbol, or ``"operand"``."""

    def scan(self) -> Result[str, SqlRefusal]:
        text = self._text
        index = 0
        end = len(text)
        while index < end:
            char = text[index]
            if char in _ALLOWED_WHITESPACE:
                index += 1
                continue
            if not char.isascii() and unicodedata.category(char) == "Zs":
                return _refuse(RefusalCode.CONTROL_CHARACTER)
            if char in _QUOTES:
                closed = self._skip_quoted(index)
                if closed is None:
                    return _refuse(RefusalCode.UNTERMINATED_QUOTE)
                if isinstance(closed, RefusalCode):
                    return _refuse(closed)
                index = closed
                self._previous = "operand"
                continue
            comment = _comment_at(text, index)
            if comment is not None:
                return _refuse(comment)
            if char == ";":
                if text[index + 1 :].strip(" \t\n\r"):
                    return _refuse(RefusalCode.MULTI_STATEMENT)
                return self._finish(text[:index])
            if char.isalnum() or char in _WORD_EXTRA or not char.isascii():
                index = self._word(index)
            else:
                refused = self._symbol(char)
                if refused is not None:
                    return _refuse(refused)
                index += 1
            if self._depth() > self._max_nesting:
                return _refuse(RefusalCode.NESTING_TOO_DEEP)
        return self._finish(text)

    def _finish(self, statement: str) -> Result[str, SqlRefusal]:
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
            text[index].isalnum() or text[index] in _WORD_EXTRA or not text[index].isascii()
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


def _comment_at(text: str, index: int) -> RefusalCode | None:
    char = text[index]
    if char == "#":
        return RefusalCode.COMMENT
    following = text[index + 1 : index + 3]
    if char == "-" and following[:1] == "-":
        return RefusalCode.COMMENT
    if char == "/" and following[:1] == "*":
        opener = text[index + 2 : index + 4]
        if opener.startswith("!") or opener.upper() == "M!":
            return RefusalCode.VERSIONED_COMMENT
        if opener.startswith("+"):
            return RefusalCode.OPTIMIZER_HINT
        return RefusalCode.COMMENT
    if char == "*" and following[:1] == "/":
        return RefusalCode.COMMENT
    return None
