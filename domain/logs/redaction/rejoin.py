"""Words put back together after each was judged alone, with what only a neighbour tells.

A word judged alone cannot see the word before it: ``1.2.3.4`` is an address, yet in
``client version: 1.2.3.4`` or ``"build": 10.0.19041.1`` the label before it names a version,
and a value named as a version is never an address (``word_shapes.names_version``). Such a
word gets its own text back when the words are joined again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.word_shapes import names_version

__all__ = ["redact_pieces", "rejoin", "restore_versions"]

_IP: Final = Placeholder.IP.value
_LABEL: Final = re.compile(r"(?i)(?:version|ver|vsn|release|build)[\"']?[ \t]*[:=]").search


def _may_label(text: str) -> bool:
    """A cheap test before the word by word one: some word of the text may label a version."""
    lowered = text.lower()
    if "ver" in lowered or "vsn" in lowered or "release" in lowered or "build" in lowered:
        return _LABEL(text) is not None
    return False


def rejoin(parts: list[str], changed: Mapping[str, str]) -> str:
    """The words of a text split on single spaces, each replaced by its redaction, joined."""
    redacted = [changed.get(part, part) for part in parts]
    joined = " ".join(redacted)
    if _IP not in joined or not _may_label(" ".join(parts)):
        return joined
    restore_versions(parts, redacted, 1)
    return " ".join(redacted)


def redact_pieces(pieces: list[str], redact: Callable[[str], str]) -> str:
    """A text split into words and the white space between them (words at even places),
    each word redacted, joined."""
    redacted = pieces[:]
    for index in range(0, len(pieces), 2):
        redacted[index] = redact(pieces[index])
    joined = "".join(redacted)
    if _IP not in joined or not _may_label("".join(pieces)):
        return joined
    restore_versions(pieces, redacted, 2)
    return "".join(redacted)


def restore_versions(words: list[str], redacted: list[str], step: int) -> None:
    """Give back every word masked as an address whose previous word (``step`` before it)
    labels a version (``version:``, ``ver=``, ``"release":``; a bare ``release`` may be a
    verb: ``dhcp release 10.0.0.5`` names an address)."""
    for index in range(step, len(words)):
        word = redacted[index]
        if word is not words[index] and word.startswith(_IP) and names_version(words[index - step]):
            redacted[index] = words[index]
