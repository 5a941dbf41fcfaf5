"""The words of a template: the variable mark and the shapes both merge stages read."""

from __future__ import annotations

from typing import Final

__all__ = ["VARIABLE", "collapse", "key_of"]

VARIABLE: Final = "<*>"


def collapse(template: str) -> str:
    """A run of variables written as one."""
    double = VARIABLE + " " + VARIABLE
    while double in template:
        template = template.replace(double, VARIABLE)
    return template


def key_of(word: str) -> str:
    """The ``key=`` or ``key:`` a word starts with, or ``""``."""
    for index, char in enumerate(word):
        if char in "=:":
            return word[: index + 1] if index > 0 else ""
        if not (char.isalpha() or char in "_.-"):
            return ""
    return ""
