"""The words of a template: the variable mark and the shapes both merge stages read."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

__all__ = [
    "JOINER",
    "VARIABLE",
    "collapse",
    "collapse_lists",
    "common_length",
    "bare",
    "enclosed_variable",
    "formatted",
    "has_constant",
    "holds_variable",
    "is_unit",
    "key_of",
    "narrowed",
    "one_key",
    "quoted_values",
]

VARIABLE: Final = "<*>"
# Joins the words of a quoted value of several words into one (``template_quotes``).
JOINER: Final = "\x1f"
_OPENERS: Final = "([{'\""
_CLOSERS: Final = ")]}'\",;:."
# The longest word read as a unit (B, KB, ms): longer words after a number are the
# template's own (opened / closed).
_UNIT_LENGTH: Final = 3
_QUOTES: Final = "'\""
_AFTER_QUOTE: Final = ",;:."


# The brackets, quotes and punctuation a word may be written with (``[tovi],`` is ``tovi``).
_AROUND: Final = "([{'\")]},;:."


def bare(word: str) -> str:
    """A word without the brackets, quotes and punctuation around it (``true,`` is
    ``true``, ``[tovi],`` is ``tovi``)."""
    return word.strip(_AROUND)


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
    quoted, a name or an identifier, never the kind of an event by itself. Not first
    (``before`` empty: a quoted message that starts a line is the event's own words), nor
    after a quoted key (``"op":``): in a document whose every string is quoted, quotes say
    nothing."""
    key = before.lstrip("([{")
    if not key or (key[:1] in _QUOTES and key.endswith(":")):
        return False
    for value in values:
        core = value.rstrip(_AFTER_QUOTE)
        quote = core[:1]
        if len(core) < 3 or quote not in _QUOTES or core[-1] != quote:
            return False
        if quote in core[1:-1]:
            return False
    return True


def narrowed(values: Sequence[str], before: str) -> tuple[Sequence[str], str]:
    """The words that decide a position whose values are quoted values of several words
    (``template_quotes``) of one length that differ in one of their words only (``"GET
    <*>"`` / ``"POST <*>"``): those words and the word before them; else the values and
    ``before`` as given."""
    if not any(JOINER in value for value in values):
        return values, before
    parts = [value.split(JOINER) for value in values]
    if len({len(words) for words in parts}) > 1:
        return values, before
    columns = list(zip(*parts, strict=True))
    differing = [at for at, column in enumerate(columns) if len(set(column)) > 1]
    if len(differing) != 1:
        return values, before
    at = differing[0]
    return columns[at], columns[at - 1][0] if at else before


def has_constant(word: str) -> bool:
    """Whether a word holds no variable, or is a quoted value one of whose words holds none
    (``"GET <*>"``): a word siblings share as context."""
    if VARIABLE not in word:
        return True
    return JOINER in word and any(VARIABLE not in part for part in word.split(JOINER))


def formatted(word: str) -> bool:
    """Whether a word is a quoted value of several words (``template_quotes``) that starts
    with a word of its own and holds a variable (``msg="Opened <*> for <*>"``): a message
    written with its parameters, whose words are the event's own, not one value."""
    if JOINER not in word or VARIABLE not in word:
        return False
    return VARIABLE not in word.split(JOINER, 1)[0]


def holds_variable(word: str) -> bool:
    """Whether a word is or holds a variable, a formatted message (``formatted``) aside:
    the variables of a message are its parameters, not the word's."""
    return VARIABLE in word and not formatted(word)


def one_key(values: Iterable[str]) -> bool:
    """Whether words are each the value of one ``key=`` / ``key:``, none a formatted
    message (a key's message is not its value)."""
    words = list(values)
    keys = {key_of(word) for word in words}
    return len(keys) == 1 and "" not in keys and not any(map(formatted, words))


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


def _quoted_field(word: str) -> bool:
    """A word that is one double-quoted value, with nothing after the closing quote."""
    return len(word) > 1 and word[0] == word[-1] == '"'


def collapse_lists(template: str) -> str:
    """A list written as one item: a run of repeats of one word, or of one pair of words,
    holding a variable (``blk_<*> blk_<*>``, ``<*> <ok> <*> <ok>``) is written once. Quoted
    words apart by spaces only (``"<*>" "<*>"``) are fields, not a list: they stay."""
    words = template.split(" ")
    out: list[str] = []
    for word in words:
        if VARIABLE in word:
            if out and out[-1] == word and not _quoted_field(word):
                continue
            if len(out) >= 3 and out[-2] == word and out[-3] == out[-1]:
                continue
        elif len(out) >= 3 and out[-1] == out[-3] and out[-2] == word and VARIABLE in out[-1]:
            out.pop()
            continue
        out.append(word)
    return " ".join(out) if len(out) < len(words) else template
