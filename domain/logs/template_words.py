"""The words of a template: the variable mark and the shapes both merge stages read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = [
    "VARIABLE",
    "collapse",
    "collapse_lists",
    "common_length",
    "enclosed_variable",
    "is_unit",
    "key_of",
    "quoted_values",
]

VARIABLE: Final = "<*>"
_OPENERS: Final = "([{'\""
_CLOSERS: Final = ")]}'\",;:."
# The longest word read as a unit (B, KB, ms): longer words after a number are the
# template's own (opened / closed).
_UNIT_LENGTH: Final = 3
_QUOTES: Final = "'\""
_AFTER_QUOTE: Final = ",;:."


_DOUBLES: Final = tuple(VARIABLE + between + VARIABLE for between in (" ", ", ", "; "))


def collapse(template: str) -> str:
    """A run of variables written as one (also where a word around a variable meets one:
    ``<*> <*>,`` is ``<*>,``), and so is a list of them however long: variables apart by
    a comma or a semicolon only (``[<*>, <*>, <*>]`` is ``[<*>]``)."""
    for double in _DOUBLES:
        while double in template:
            template = template.replace(double, VARIABLE)
    return template


def is_unit(word: str) -> bool:
    """A short word of letters, maybe followed by punctuation (``KB,``)."""
    core = word.rstrip(",;:.)]}'\"")
    return 0 < len(core) <= _UNIT_LENGTH and core.isalpha()


def quoted_values(values: Sequence[str], before: str) -> bool:
    """Whether every word is one whole quoted value (``"cozo"``, ``'x',``): a value the source
    quoted, a name or an identifier, never the kind of an event by itself. Not after a
    quoted key (``"op":``): in a document whose every string is quoted, quotes say nothing."""
    key = before.lstrip("([{")
    if key[:1] in _QUOTES and key.endswith(":"):
        return False
    for value in values:
        core = value.rstrip(_AFTER_QUOTE)
        quote = core[:1]
        if len(core) < 3 or quote not in _QUOTES or core[-1] != quote:
            return False
        if quote in core[1:-1]:
            return False
    return True


def key_of(word: str) -> str:
    """The ``key=`` or ``key:`` a word starts with, or ``""``."""
    for index, char in enumerate(word):
        if char in "=:":
            return word[: index + 1] if index > 0 else ""
        if not (char.isalpha() or char in "_.-"):
            return ""
    return ""


def enclosed_variable(firsts: Sequence[str], lasts: Sequence[str]) -> str:
    """A variable standing for values whose first words all start with the same brackets
    or quotes and whose last words all end with the same ones: kept around it."""
    return _common(firsts, _OPENERS, False) + VARIABLE + _common(lasts, _CLOSERS, True)


def _common(words: Sequence[str], allowed: str, from_end: bool) -> str:
    """The longest run of ``allowed`` characters every word starts (or ends) with."""
    shortest = min(len(word) for word in words)
    size = 0
    while size < shortest:
        chars = {word[-1 - size] if from_end else word[size] for word in words}
        if len(chars) != 1 or chars.pop() not in allowed:
            break
        size += 1
    if not size:
        return ""
    sample = words[0]
    return sample[len(sample) - size :] if from_end else sample[:size]


def common_length(first: Sequence[str], second: Sequence[str]) -> int:
    """How many words two sequences share from their start."""
    size = min(len(first), len(second))
    for index in range(size):
        if first[index] != second[index]:
            return index
    return size


def collapse_lists(template: str) -> str:
    """A list written as one item: a run of repeats of one word, or of one pair of words,
    holding a variable (``blk_<*> blk_<*>``, ``<*> <ok> <*> <ok>``) is written once."""
    words = template.split(" ")
    out: list[str] = []
    for word in words:
        if VARIABLE in word:
            if out and out[-1] == word:
                continue
            if len(out) >= 3 and out[-2] == word and out[-3] == out[-1]:
                continue
        elif len(out) >= 3 and out[-1] == out[-3] and out[-2] == word and VARIABLE in out[-1]:
            out.pop()
            continue
        out.append(word)
    return " ".join(out) if len(out) < len(words) else template
