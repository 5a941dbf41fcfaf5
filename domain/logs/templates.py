"""Template mining: a message becomes its template by masking its variable parts.

One generic configuration for every log type, no per-source masks:

* a word holding a digit is a variable (``<*>``), except the leading key of ``key=value`` or
  ``key:value`` and any brackets, quotes or punctuation around it (``(uid=<*>)``,
  ``HWID=<*>)``); a path (``/var/x``, ``C:\\x``, ``./x``) is a variable;
* a unit after a variable belongs to it (``12 ms`` → ``<*>``), and so does a weekday or month
  name next to one (``Thu Aug <*>`` → ``<*>``);
* a run of variables is one variable (a list of ids is one parameter);
* a placeholder written by redaction (``<IP>``, ``<SECRET>`` …) is a variable like a number
  (the redacted examples still show its type).

After a batch, templates that differ in exactly one word position (never the first) and
have at least four different words there are merged, that position becoming a variable: a
word that takes many values in otherwise identical messages is a parameter.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Final

__all__ = [
    "VARIABLE",
    "fingerprint",
    "mask_word",
    "merge_templates",
    "template_of_masked",
]

VARIABLE: Final = "<*>"
_DOUBLE: Final = VARIABLE + " " + VARIABLE
_DIGIT: Final = re.compile(r"\d|<[A-Z_]{2,12}>").search
_PATH: Final = re.compile(r"(?:[A-Za-z]:\\|~?/|\.{1,2}/|\\\\)").match
_KEY_PREFIX: Final = re.compile(r"([A-Za-z_][A-Za-z_.\-]*[=:])(.+)$").match
_OPENERS: Final = "([{'\""
_CLOSERS: Final = {")": "(", "]": "[", "}": "{"}
_TRAILING: Final = ",;:.'\"!?"
_UNITS: Final = (
    "B|KB|MB|GB|TB|KiB|MiB|GiB|TiB|kB|bytes|ms|us|µs|ns|s|sec|secs|seconds|min|mins|minutes|"
    "h|hrs|hours"
)
_UNIT_AFTER_VARIABLE: Final = re.compile(r"<\*> (?:" + _UNITS + r")(?=[,;:.)\]'\"!?]*(?: |$))")
_UNIT_WORDS: Final = frozenset(
    unit + end for unit in _UNITS.split("|") for end in ("", ",", ";", ":", ".", ")", "]")
)
_DATE_WORDS: Final = frozenset(
    {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Jan", "Feb", "Mar", "Apr", "May"}
    | {"Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)
_DATE_NEAR_VARIABLE: Final = re.compile(
    r"(?<![\w<])(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
    r"(?= <\*>)|(?<=<\*> )(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep"
    r"|Oct|Nov|Dec)(?![\w>])"
)
_MERGE_MIN_VALUES: Final = 4
_MERGE_MIN_WORDS: Final = 3


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
    if keyed is not None and _PATH(core) is None:
        value = keyed.group(2)
        if _DIGIT(value) is not None or _PATH(value) is not None or value.count("/") >= 2:
            return word[:start] + keyed.group(1) + VARIABLE + word[end:]
        return word
    return word[:start] + VARIABLE + word[end:]


def template_of_masked(masked: list[str]) -> str:
    """The template of a message given each of its words as ``mask_word`` made it."""
    template = " ".join(masked)
    if "  " in template:
        template = " ".join(template.split())
    if VARIABLE not in template:
        return template
    if not _DATE_WORDS.isdisjoint(masked):
        template = _DATE_NEAR_VARIABLE.sub(VARIABLE, template)
        template = _DATE_NEAR_VARIABLE.sub(VARIABLE, template)  # ``Fri Dec <*>``: two steps
    if not _UNIT_WORDS.isdisjoint(masked):
        template = _UNIT_AFTER_VARIABLE.sub(VARIABLE, template)
    while _DOUBLE in template:
        template = template.replace(_DOUBLE, VARIABLE)
    return template


def merge_templates(templates: Iterable[str]) -> dict[str, str]:
    """For each template of a batch, the template it is merged into (itself when none)."""
    distinct = list(dict.fromkeys(templates))
    parent = {template: template for template in distinct}

    def root(template: str) -> str:
        while parent[template] != template:
            parent[template] = parent[parent[template]]
            template = parent[template]
        return template

    by_signature: dict[tuple[int, int, str], list[str]] = defaultdict(list)
    split: dict[str, list[str]] = {}
    for template in distinct:
        words = template.split(" ")
        split[template] = words
        if len(words) < _MERGE_MIN_WORDS:
            continue
        for position in range(1, len(words)):
            if VARIABLE in words[position]:
                continue
            rest = " ".join(words[:position]) + "\x00" + " ".join(words[position + 1 :])
            by_signature[(len(words), position, rest)].append(template)
    for group in by_signature.values():
        if len(group) >= _MERGE_MIN_VALUES:
            first = root(group[0])
            for template in group[1:]:
                other = root(template)
                if other != first:
                    parent[other] = first
    members: dict[str, list[str]] = defaultdict(list)
    for template in distinct:
        members[root(template)].append(template)
    merged: dict[str, str] = {}
    for group_members in members.values():
        if len(group_members) == 1:
            merged[group_members[0]] = group_members[0]
            continue
        columns = zip(*(split[member] for member in group_members), strict=False)
        words = [column[0] if len(set(column)) == 1 else VARIABLE for column in columns]
        joined = " ".join(words)
        while _DOUBLE in joined:
            joined = joined.replace(_DOUBLE, VARIABLE)
        for member in group_members:
            merged[member] = joined
    return merged


def fingerprint(template: str) -> str:
    """A stable short id for a template text (the same text gives the same id in every run)."""
    return hashlib.sha256(template.encode("utf-8")).hexdigest()[:12]
