"""Template mining, one message at a time: a message becomes its template by masking the
words whose *shape* says they are values. Shapes only, never a word list, and one
configuration for every source:

* a word holding a digit is a variable (``<*>``), keeping any brackets, quotes and trailing
  punctuation around it, the key of ``key=value`` / ``key:value`` (``(uid=<*>)``) and a
  leading name joined by ``.``, ``_`` or ``-`` (``core.<*>``, ``blk_<*>``); ``host.name:port``
  is an address, wholly a variable; a path (``/var/x``, ``C:\\x``, ``./x``) is a variable;
* a placeholder written by redaction (``<IP>``, ``<SECRET>`` …) is a variable like a number
  (only those: ``<NOSRV>`` is a word of the line);
* a ``ctime`` timestamp (``Thu Aug <*>``: two capitalised three-letter words before a
  variable) is one variable;
* a run of variables is one variable, and a list is one item (``blk_<*> blk_<*>`` →
  ``blk_<*>``, ``<*> ok <*> ok`` → ``<*> ok``).

What shapes cannot see (a user name, a program name, a unit that changes) is found across a
batch by ``merge_templates`` (see ``template_merge``).
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import Final

from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.template_merge import (
    VARIABLE,
    collapse,
    collapse_lists,
    merge_templates,
)

__all__ = [
    "VARIABLE",
    "fingerprint",
    "mask_word",
    "merge_templates",
    "template_of_masked",
]

_DIGIT: Final = re.compile(
    "|".join((r"\d", *(re.escape(placeholder.value) for placeholder in Placeholder)))
).search
_PATH: Final = re.compile(r"(?:[A-Za-z]:\\|~?/|\.{1,2}/|\\\\)").match
_KEY_PREFIX: Final = re.compile(r"([A-Za-z_][A-Za-z_.\-]*[=:])(.+)$").match
_NAMED: Final = re.compile(r"([A-Za-z]{2,}[._\-]*[._])-?\d").match
_HOST_PORT: Final = re.compile(r"[A-Za-z][\w\-]*(?:\.[\w\-]+)+:\d{1,5}$").match
_CTIME: Final = re.compile(r"(?<!\S)[A-Z][a-z]{2},? [A-Z][a-z]{2} <\*>(?!\S)")
_OPENERS: Final = "([{'\""
_CLOSERS: Final = {")": "(", "]": "[", "}": "{"}
_TRAILING: Final = ",;:.'\"!?"


def mask_word(word: str) -> str:
    """One word of a message as it appears in the template."""
    if _DIGIT(word) is None and "/" not in word and "\\" not in word:
        return word
    start = 0
    end = len(word)
    while start < end and word[start] in _OPENERS:
        start += 1
    while end > start:
        char = word[end - 1]
        if char in _TRAILING:
            end -= 1
            continue
        opener = _CLOSERS.get(char)
        if opener is not None:
            core = word[start:end]
            if core.count(opener) < core.count(char):
                end -= 1
                continue
        break
    core = word[start:end]
    if _PATH(core) is None and core.count("/") < 2 and _DIGIT(core) is None:
        return word
    keyed = _KEY_PREFIX(core)
    if keyed is not None and _PATH(core) is None and _HOST_PORT(core) is None:
        value = keyed.group(2)
        if _DIGIT(value) is not None or _PATH(value) is not None or value.count("/") >= 2:
            return word[:start] + keyed.group(1) + VARIABLE + word[end:]
        return word
    named = _NAMED(core)
    if named is not None:
        return word[:start] + named.group(1) + VARIABLE + word[end:]
    return word[:start] + VARIABLE + word[end:]


def template_of_masked(masked: list[str]) -> str:
    """The template of a message given each of its words as ``mask_word`` made it."""
    template = " ".join(masked)
    if VARIABLE not in template and "  " not in template:
        return template
    return _finish(template)


@lru_cache(maxsize=65_536)
def _finish(template: str) -> str:
    """White space, timestamps, runs and lists of a joined template (remembered: many
    messages share one)."""
    if "  " in template:
        template = " ".join(template.split())
    if VARIABLE not in template:
        return template
    template = _CTIME.sub(VARIABLE, template)
    if template.count(VARIABLE) > 1:
        template = collapse_lists(collapse(template))
    return template


def fingerprint(template: str) -> str:
    """A stable short id for a template text (the same text gives the same id in every run)."""
    return hashlib.sha256(template.encode()).hexdigest()[:12]
