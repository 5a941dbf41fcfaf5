"""E-mail addresses written without a plain ``@``.

* **URL-encoded**: ``email=jane.doe%40example.com`` (in a query string or a form body); the
  host pattern may already have replaced the domain (``jane.doe%<HOST>``).
* **An HTML entity or an escape**: ``jane.doe&#64;example.com``, ``&#x40;`` (a page or a mail
  body logged as it was sent), JSON's ``\\u0040`` and ``\\x40`` (a serializer escaping ``@``).
* **Spelled out**: ``jane.doe [at] example [dot] com``, ``john(at)example.org``, ``ops AT
  corp DOT example``, ``jdoe at example dot com``: ``at`` and ``dot`` in brackets, both as
  upper-case words, or both as lower-case words with ``dot`` before the last label (the
  family reads such a text only when it holds the word ``dot``).
* **Quoted local part**: ``"john.doe"@example.com``, ``"jane smith"@corp.example.org``.
* **International**: a local part or a domain in Unicode (``hans.müller@bücher.de``); the
  ``xn--`` spelling of such a domain is ASCII and read by the shape patterns.

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
_TLD: Final = (
    r"(?i:com|org|net|edu|gov|mil|int|io|co|uk|de|fr|es|it|nl|be|ch|at|se|no|dk|fi|pl|cz|ru"
    r"|jp|cn|in|br|au|ca|us|eu|info|biz|me|dev|app|ai)"
)
"""The last labels an address spelled in lower-case words may end with (``… dot com``), so
``looking at cache dot files`` is no address."""
_WORD_DOT: Final = r"[ \t]+DOT[ \t]+"
_SPELLED: Final = re.compile(
    r"(?P<encoded>"
    + _LOCAL
    + r"%(?:40"
    + _LABEL
    + r"(?:\."
    + _LABEL
    + r")*\.[A-Za-z]{2,24}|<HOST>))(?![\w\-])"
    r"|(?P<entity>"
    + _LOCAL
    + r"(?:&#(?:64|[xX]40);|\\{1,2}(?:u0040|x40))(?:<HOST>|"
    + _LABEL
    + r"(?:\."
    + _LABEL
    + r")+))"
    r"(?![\w\-])"
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
    r"|(?P<lower>" + _LOCAL + r"[ \t]+at[ \t]+" + _LABEL + r"(?:[ \t]+dot[ \t]+" + _LABEL + r")*"
    r"[ \t]+dot[ \t]+" + _TLD + r")(?![\w\-])"
)


def _gate(shape: str) -> bool:
    if "%" in shape or shape in ("AT", "dot") or '"@' in shape or "&#" in shape:
        return True
    if "\\u0000" in shape or "\\x00" in shape:
        return True
    if "@" in shape and not shape.isascii():
        return True
    if "(" not in shape and "[" not in shape and "{" not in shape:
        return False
    lowered = shape.lower()
    return "at)" in lowered or "at]" in lowered or "at}" in lowered


def _probe(lowered: str) -> bool:
    return (
        "@" in lowered
        or "%40" in lowered
        or "&#64;" in lowered
        or "&#x40;" in lowered
        or "\\u0040" in lowered
        or "\\x40" in lowered
        or "%<host>" in lowered
        or "at)" in lowered
        or "at]" in lowered
        or "at}" in lowered
        or " at " in lowered
    )


_WRITTEN: Final = re.compile(
    r"\"[^\"\n@]{1,64}\"@(?:<HOST>|" + _LABEL + r"(?:\." + _LABEL + r")+)(?![\w\-])"
    r"|(?P<idn>(?<![\w.+%\-])[\w.+\-]+@(?:<HOST>|[\w\-]+(?:\.[\w\-]+)+))(?![\w\-])"
)


def _written(match: re.Match[str]) -> str:
    found = match.group(0)
    if match.group("idn") is not None and found.isascii():
        return found  # a plain address is the shape patterns'
    return _EMAIL


def _apply(text: str) -> str:
    text = _SPELLED.sub(_EMAIL, text)
    return _WRITTEN.sub(_written, text) if "@" in text else text


EMAIL_SPELLINGS: Final = TextFamily(
    name="e-mail addresses URL-encoded, spelled out, with a quoted local part or in Unicode",
    gate=_gate,
    probe=_probe,
    apply=_apply,
)
