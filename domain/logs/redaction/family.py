"""The two shapes of a rule family: one that reads a word, one that reads a whole text.

A *word family* is decided by a word's shape (its digits made ``0``): ``hint`` says whether
its pattern can match any word of that shape, so the redactor runs it at most once per
distinct word. A *text family* reads a whole text (its values span words or need the words
around them): ``gate`` says whether a word's shape may start one of its values (a line with
no such word skips it), ``probe`` is a cheap test on the lower-cased text, and ``apply``
rewrites the text; a ``cue``, when given, is a second gate that some word of the text must
also pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from attrs import frozen

__all__ = ["TextFamily", "WordFamily"]


@frozen
class WordFamily:
    """A rule family that finds a value inside one word."""

    name: str
    """What the family catches, for the registry and the decision record."""
    hint: Callable[[str], bool]
    """True when a word of this shape may hold a value (digits of the shape are ``0``)."""
    pattern: re.Pattern[str]
    """Runs on the word."""
    replace: Callable[[re.Match[str]], str]
    """What a match becomes (the match itself when a check refuses it)."""
    as_written: Callable[[str], bool] | None = None
    """When given: True when the pattern may match a word of this shape as written (an exact
    test, not a hint); the family then runs on a word failing it only once an earlier shape
    pattern changed that word."""


@frozen
class TextFamily:
    """A rule family that finds values in a whole text."""

    name: str
    """What the family catches."""
    gate: Callable[[str], bool]
    """True when a word of this shape may start a value."""
    probe: Callable[[str], bool]
    """Cheap test on the lower-cased text."""
    apply: Callable[[str], str]
    """The text with the family's values replaced."""
    cue: Callable[[str], bool] | None = None
    """When given, the family runs only on a text that also holds a word of this shape (the
    words around a value that say what it is)."""
    confirm: Callable[[str], bool] | None = None
    """When given, the gate read again on a word itself (not its shape) whose shape passed
    it: for a family whose values depend on a digit's value (a trunk ``0``), so that words of
    a passing shape without such a digit (``2005.06.03``) do not send their text to it."""
    after_key: bool = True
    """False when no value of the family follows the key of a ``key=value`` word (its pattern
    needs white space after the word that names the value, ``api key …``, ``login …``): such a
    key then passes neither its gate nor its cue."""
