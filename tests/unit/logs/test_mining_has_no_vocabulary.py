"""The miner holds no vocabulary: no literal in its modules (docstrings aside) contains a
word, so no rule can name a dataset's words. Shapes (digits, punctuation, letter classes) and
batch statistics are all it may use."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import factledger.domain.logs as logs_package

MINING_MODULES = (
    "templates.py",
    "template_merge.py",
    "template_gaps.py",
    "template_words.py",
    "template_pairs.py",
    "template_places.py",
    "template_twins.py",
    "template_tails.py",
    "template_spans.py",
    "template_quotes.py",
    "template_union.py",
    "mining.py",
)
_WORD = re.compile(r"[A-Za-z]{3,}")


def _docstrings(tree: ast.Module) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
        if isinstance(node, ast.ClassDef):  # attribute docstrings: a string after a field
            for first, second in zip(node.body, node.body[1:], strict=False):
                if isinstance(first, ast.AnnAssign | ast.Assign) and isinstance(second, ast.Expr):
                    found.add(id(second.value))
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):  # the names a module exports
            found.update(id(item) for item in ast.walk(node.value))
    return found


def words_in_literals(source: str) -> list[str]:
    """Every word (three letters or more) written in a string literal outside docstrings and
    ``__all__``."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    words: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            words.extend(_WORD.findall(node.value))
    return words


@pytest.mark.parametrize("module", MINING_MODULES)
def test_no_literal_of_a_mining_module_holds_a_word(module: str) -> None:
    source = (Path(logs_package.__file__).parent / module).read_text(encoding="utf-8")
    assert words_in_literals(source) == []


def test_the_check_finds_a_word_list_and_a_word_in_a_pattern() -> None:
    source = 'UNITS = ("ms", "sec", "bytes")\nDAYS = re.compile(r"(?:Mon|Tue)")\n'
    assert words_in_literals(source) == ["sec", "bytes", "Mon", "Tue"]


def test_the_check_ignores_docstrings() -> None:
    source = '"""Module words."""\ndef f():\n    """Function words."""\n'
    assert words_in_literals(source) == []
