"""Credentials carried in a URL's path: the segment after a segment that names what the
path delivers or grants (``/hooks/ingest/<token>/events``, ``/webhook/<key>``,
``/api/v1/invite/<code>``, ``/reset/<token>``).

Whoever holds such a URL can post to the hook or use the link, so the segment is the
credential, though no key names it. It goes when it is shaped like a generated value: 16 to
256 characters of letters, digits, ``-`` and ``_``, with a digit and a letter, and not only
lower-case hexadecimal and dashes (a UUID or a hex id is a request's or a record's id and
stays, as the must-keep rule has ids stay), nor words and numbers joined by dashes (a slug,
``rotation-schedule-2026``). ``/hooks/github``, ``/hooks/ingest/42/events``
and ``/webhook/3f2c9a1e-…`` stay.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import WordFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["PATH_TOKENS"]

_SECRET: Final = Placeholder.SECRET.value
_NAMES: Final = (
    r"hooks?|webhooks?|ingest|tokens?|keys?|secrets?|invite|invitations?|reset|verify"
    r"|confirm|magic|unsubscribe|share|shared|activate|callback|beacon"
)
_PATH_TOKEN: Final = re.compile(
    r"(?i)(/(?:" + _NAMES + r")/)([A-Za-z0-9_\-]{16,256})(?=[/?#\"'\s]|$)"
)
_HINT: Final = re.compile(r"/(?:" + _NAMES + r")/", re.IGNORECASE).search
_HEX_ID: Final = re.compile(r"[0-9a-f\-]+").fullmatch
_SLUG: Final = re.compile(r"(?:[A-Za-z]+|\d+)(?:[\-_](?:[A-Za-z]+|\d+))*").fullmatch
"""Words and numbers joined by ``-`` or ``_`` (``rotation-schedule-2026``): a name."""


def _path_token(match: re.Match[str]) -> str:
    value = match.group(2)
    has_digit = any(char.isdigit() for char in value)
    has_letter = any(char.isalpha() for char in value)
    if not (has_digit and has_letter) or _HEX_ID(value) is not None or _SLUG(value) is not None:
        return match.group(0)
    return match.group(1) + _SECRET


PATH_TOKENS: Final = WordFamily(
    name="credentials in a URL's path after a segment naming a hook or a link",
    hint=lambda shape: "/" in shape and _HINT(shape) is not None,
    pattern=_PATH_TOKEN,
    replace=_path_token,
)
