"""E-mail addresses written without a plain ``@``.

* **URL-encoded**: ``email=jane.doe%40example.com`` (in a query string or a form body); the
  host pattern may already have replaced the domain (``jane.doe%<HOST>``).
* **Spelled out**: ``jane.doe [at] example [dot] com``, ``john(at)example.org``, ``ops AT
  corp DOT example``: ``at`` and ``dot`` in brackets, or both as upper-case words.

The whole address goes; the words around it stay.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["EMAIL_SPELLINGS"]

_EMAIL: Final = Placeholder.EMAIL.value
_LOCAL: Final = r"(?<![\w.+%\-])[A-Za-z0-9][A-Za-z0-9._+\-]*"
_LABEL: Final = r"[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?"
_BRACKET_AT: Final = r"[ \t]*[\[(\{](?i:at)[\])\}][ \t]*"
_DOT: Final = r"(?:[ \t]*[\[(\{](?i:dot)[\])\}][ \t]*|[ \t]+DOT[ \t]+|\.)"
_WORD_DOT: Final = r"[ \t]+DOT[ \t]+"
_SPELLED: Final = re.compile(
    r"(?P<encoded>"
    + _LOCAL
    + r"%(?:40"
    + _LABEL
    + r"(?:\."
    + _LABEL
    + r")*\.[A-Za-z]{2,24}|<HOST>))(?![\w\-])"
    r"|(?P<spelled>"
    + _LOCAL
    + _BRACKET_AT
    + r"(?:<HOST>|"
    + _LABEL
    + r"(?:"
    + _DOT
    + _LABEL
    + r")+))(?![\w\-])"
    r"|(?P<words>" + _LOCAL + r"[ \t]+AT[ \t]+" + _LABEL + r"(?:" + _WORD_DOT + _LABEL + r")+)"
    r"(?![\w\-])"
)


def _gate(shape: str) -> bool:
    if "%" in shape or shape == "AT":
        return True
    if "(" not in shape and "[" not in shape and "{" not in shape:
        return False
    lowered = shape.lower()
    return "at)" in lowered or "at]" in lowered or "at}" in lowered


def _probe(lowered: str) -> bool:
    return (
        "%40" in lowered
        or "%<host>" in lowered
        or "at)" in lowered
        or "at]" in lowered
        or "at}" in lowered
        or " at " in lowered
    )


EMAIL_SPELLINGS: Final = TextFamily(
    name="e-mail addresses URL-encoded or spelled out",
    gate=_gate,
    probe=_probe,
    apply=lambda text: _SPELLED.sub(_EMAIL, text),
)
