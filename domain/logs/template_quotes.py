"""A double-quoted value of several words as one word of its template: a user agent, a
request line, a quoted message or a ``key="…"`` value stands at one position whatever its
length, so the templates of one format line up and the batch merge decides on the whole
value like on one word.

The words of a quoted value are joined by ``JOINER`` (a control character that a log line
does not hold) for the merge, and the merged templates are written with their spaces again
(``unjoin``). A quote is opened by a word that starts with one (after brackets and a
``key=``) and does not close it, and closed by the first later word that ends with one (before
closing punctuation) not escaped by a backslash; a quote never closed joins nothing.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from factledger.domain.logs.template_words import JOINER, key_of

__all__ = ["JOINER", "join_quoted", "unjoin"]

_QUOTE: Final = '"'
_OPENING: Final = "([{"
_CLOSING: Final = ",;:.)]}"


@lru_cache(maxsize=65_536)
def join_quoted(template: str) -> str:
    """The template with the words of each quoted value of several words joined."""
    if _QUOTE not in template:
        return template
    words = template.split(" ")
    out: list[str] = []
    at = 0
    size = len(words)
    while at < size:
        end = _closing(words, at) if _opens(words[at]) else at
        out.append(JOINER.join(words[at : end + 1]) if end > at else words[at])
        at = end + 1
    return " ".join(out)


def unjoin(form: str) -> str:
    """A form written with spaces again."""
    return form.replace(JOINER, " ") if JOINER in form else form


def _opens(word: str) -> bool:
    """Whether a word starts a quoted value it does not end."""
    rest = word.lstrip(_OPENING)
    rest = rest[len(key_of(rest)) :]
    return rest[:1] == _QUOTE and not (len(rest) > 1 and _closes(rest))


def _closes(word: str) -> bool:
    """Whether a word ends a quoted value (an unescaped quote before closing punctuation)."""
    core = word.rstrip(_CLOSING)
    return core.endswith(_QUOTE) and not core.endswith("\\" + _QUOTE)


def _closing(words: list[str], start: int) -> int:
    """The position of the word that closes the quote opened at ``start`` (``start`` when
    none does)."""
    for at in range(start + 1, len(words)):
        if _closes(words[at]):
            return at
    return start
