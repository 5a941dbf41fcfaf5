"""Credentials in configuration directives written ``name value`` and in quoted key and value
pairs of code.

* **Directives** (``requirepass …``, ``masterauth …`` of Redis, ``rootpw …`` of slapd,
  ``bindpw …`` of nslcd, ``db_password …``): a line that is a name and one value, or
  ``CONFIG SET name value``. The names of one list hold a credential whatever its shape; any
  other name whose last word is a credential noun (``password``, ``secret``, ``token`` …)
  holds one when the value is shaped like a password and is no path (``auth_basic
  "Restricted";``, ``password_min_length 12`` and a test runner's ``PASS src/a.test.js`` stay).
* **Quoted pairs** (``define('DB_PASSWORD', '…')``, ``os.environ["API_TOKEN"] = "…"``,
  ``'password' => '…'``, ``config.set("smtp_password", "…")``): a quoted credential key
  (``secret_keys.is_secret_key``) then, after ``,``, ``] =`` or ``=>``, a quoted value that
  the value-shape rule does not keep.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.auth_headers import scheme_kept
from factledger.domain.logs.redaction.credential_phrases import password_shaped
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.secret_keys import is_secret_key
from factledger.domain.logs.redaction.value_shapes import keeps_value

__all__ = ["DIRECTIVES", "QUOTED_PAIRS"]

_SECRET: Final = Placeholder.SECRET.value
_ALWAYS: Final = frozenset(
    {"requirepass", "masterauth", "masteruser_password", "rootpw", "bindpw", "authtok", "psk"}
)
"""Directives whose value is a credential whatever its shape."""
_LAST_WORDS: Final = ("pass", "password", "passwd", "pwd", "pw", "secret", "token", "passphrase")
_DIRECTIVE: Final = re.compile(
    r"(?im)((?:^|(?<=\n))[ \t]*|config[ \t]+set[ \t]+)([A-Za-z][\w.\-]{1,63})([ \t]+)"
    r"(\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'<;]\S*?)(;?)[ \t]*$"
)


def _directive(match: re.Match[str]) -> str:
    name, value = match.group(2), match.group(4)
    lowered = name.lower()
    bare = value[1:-1] if value[:1] in "\"'" else value
    if not bare:
        return match.group(0)
    if lowered not in _ALWAYS:
        if not lowered.endswith(_LAST_WORDS) or not is_secret_key(name):
            return match.group(0)
        if name == "PASS" or "/" in bare or "\\" in bare:
            return match.group(0)  # FTP's command (``credential_phrases``) or a path
        if keeps_value(name, bare) or not password_shaped(bare):
            return match.group(0)
    replaced = value[0] + _SECRET + value[0] if value[:1] in "\"'" else _SECRET
    head = match.group(1) + name + match.group(3)
    return head + replaced + match.group(5) + match.group(0)[match.end(5) - match.start() :]


def _directive_gate(shape: str) -> bool:
    lowered = shape.lower()
    return lowered in _ALWAYS or (lowered.endswith(_LAST_WORDS) and lowered[:1].isalpha())


DIRECTIVES: Final = TextFamily(
    name="credentials in directives written as a name and one value",
    gate=_directive_gate,
    after_key=False,
    probe=lambda lowered: " " in lowered or "\t" in lowered,
    apply=lambda text: _DIRECTIVE.sub(_directive, text),
)

_QUOTED_PAIR: Final = re.compile(
    r"(?<![\w\\])([\"'])([A-Za-z_][\w.\-]{0,63})\1(\s*(?:,|\]\s*=|=>|:)\s*)"
    r"([\"'])((?:(?!\4)[^\\\n]|\\.){1,256})\4"
)


def _quoted_pair(match: re.Match[str]) -> str:
    key, value = match.group(2), match.group(5)
    if value.startswith("<") or not is_secret_key(key) or keeps_value(key, value):
        return match.group(0)
    head = match.group(1) + key + match.group(1) + match.group(3)
    if (scheme := scheme_kept(key, value)) is not None:
        return head + match.group(4) + scheme + match.group(4)
    return head + match.group(4) + _SECRET + match.group(4)


_PAIR_GATE: Final = re.compile(r"[\"'][\w.\-]*(?:pass|pwd|secret|token|auth|key|cred)", re.I)


QUOTED_PAIRS: Final = TextFamily(
    name="credentials in quoted key and value pairs of code",
    gate=lambda shape: ("'" in shape or '"' in shape) and _PAIR_GATE.search(shape) is not None,
    probe=lambda lowered: "'" in lowered or '"' in lowered,
    apply=lambda text: _QUOTED_PAIR.sub(_quoted_pair, text),
)
