"""The one test of whether a short text may be recorded as a code: ``[A-Z][A-Z0-9_]{0,63}``.

Reasons come from tools, judges and clients; only what has the shape of a code is kept in
events, audit rows and logs, anything else becomes ``OTHER`` (it could carry content).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["safe_code"]

_CODE: Final = re.compile(r"[A-Z][A-Z0-9_]{0,63}")


def safe_code(text: str | None) -> str | None:
    """``text`` when it has the shape of a code; ``OTHER`` when it does not; ``None`` stays."""
    if text is None:
        return None
    return text if _CODE.fullmatch(text) else "OTHER"
