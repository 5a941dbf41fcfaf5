"""Private key blocks line by line: a text that holds a private key's BEGIN or END line has
every base64 line, PGP checksum line and armor header line replaced, so a block cut into
records (the END line and the lines before it shown as a record's continuation) gives
nothing away. A whole block with its BEGIN line is also replaced in one piece by the context
patterns; this family covers the pieces."""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["PRIVATE_KEY_LINES"]

_SECRET: Final = Placeholder.SECRET.value
_MARKER: Final = re.compile(r"-----(?:BEGIN|END) (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_KEY_LINE: Final = re.compile(
    r"(?m)^([ \t\"',]*)(?:[A-Za-z0-9+/]{4,}={0,2}|[A-Za-z0-9+/]{2,3}={1,2}|=[A-Za-z0-9+/]{4}"
    r"|(?:Version|Comment|Hash|Charset|MessageID|Proc-Type|DEK-Info): [^\n]*)([ \t\"',]*)$"
)


def _key_line(match: re.Match[str]) -> str:
    return match.group(1) + _SECRET + match.group(2)


def _private_key_lines(text: str) -> str:
    if _MARKER.search(text) is None:
        return text
    return _KEY_LINE.sub(_key_line, text)


PRIVATE_KEY_LINES: Final = TextFamily(
    name="private key blocks line by line",
    gate=lambda shape: shape.startswith("-----"),
    probe=lambda lowered: "private key" in lowered,
    apply=_private_key_lines,
)
