"""Vendor keys whose prefix is on no list, and base64 lines of key material, by their shape.

A vendor key is a short lower- or mixed-case prefix and a separator (``zxq_``, ``sk-proj-``)
before a random body of 20 or more letters and digits. The body is random when it mixes
letters and digits, is not hexadecimal (hashes, trace and request ids stay), is not a ULID,
and its characters carry at least 3.5 bits each. The prefix stays, the body is replaced. An
object id of a payment vendor (``ch_…``, ``evt_…``) stays: its prefix names a kind of record.

A hex body after a prefix (``pplx-3f9a…``) is a key when it is long (32 characters or more),
mixes letters and digits, carries at least 3 bits per character, and its length is no
digest's or id's (24 an ObjectId, 32 an MD5 or trace id, 40 a SHA-1 or commit, 56, 64, 96,
128 the SHA-2 family): those lengths stay whatever the prefix (``sha256-…``, ``req-…``,
``release-…``) unless the prefix is a credential word (``token-…``, ``secret_…``).

A base64 line of 40 or more characters with upper case, lower case and digits is key
material (a line of a PEM or PGP block, an SSH key) whatever its entropy: long runs of ``A``
in DER encodings lower the entropy of real key lines.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Final

from factledger.domain.logs.redaction.family import WordFamily
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.secret_keys import is_secret_key

__all__ = ["BASE64_LINES", "VENDOR_KEYS", "entropy", "fingerprint", "hex_key", "random_body"]

_SECRET: Final = Placeholder.SECRET.value
_HEX: Final = re.compile(r"[0-9a-f]+|[0-9A-F]+").fullmatch
_ULID: Final = re.compile(r"[0-7][0-9A-HJKMNP-TV-Z]{25}").fullmatch
_VENDOR: Final = re.compile(
    r"(?<![A-Za-z0-9_\-])(?P<prefix>[A-Za-z][A-Za-z0-9]{1,11}(?:[_\-][A-Za-z0-9]{1,11}){0,2}[_\-])"
    r"(?P<body>[A-Za-z0-9]{20,})(?![A-Za-z0-9])"
)


_VENDOR_HINT: Final = re.compile(r"[A-Za-z0-9][_\-][A-Za-z0-9]{20}").search
_BASE64_HINT: Final = re.compile(r"[A-Za-z0-9+/]{40}").search


def entropy(text: str) -> float:
    """Shannon entropy of a text, in bits a character."""
    size = len(text)
    return -sum(n / size * math.log2(n / size) for n in Counter(text).values())


def random_body(body: str) -> bool:
    """True when a run of letters and digits looks random (see the module text)."""
    if len(body) < 20 or body.isalpha() or body.isdigit() or _HEX(body) or _ULID(body):
        return False
    digits = sum(1 for char in body if char.isdigit())
    if not 0.08 <= digits / len(body) <= 0.85:
        return False
    return entropy(body) >= 3.5


_ID_LENGTHS: Final = frozenset({24, 32, 40, 56, 64, 96, 128})
"""Lengths of hex digests and ids (ObjectId, MD5 and trace ids, SHA-1, SHA-2)."""


def hex_key(prefix: str, body: str) -> bool:
    """True when a hex body after a prefix is a key (see the module text)."""
    if len(body) < 32 or _HEX(body) is None or body.isdigit() or body.isalpha():
        return False
    if len(body) in _ID_LENGTHS and not is_secret_key(prefix.rstrip("_-")):
        return False
    return entropy(body.lower()) >= 3.0


_OBJECT_PREFIXES: Final = frozenset(
    {"ch_", "evt_", "pi_", "cus_", "sub_", "in_", "re_", "txn_", "po_", "pm_", "seti_", "si_"}
    | {"acct_", "prod_", "price_", "py_", "src_", "ii_", "il_", "tr_", "card_", "ba_", "fee_"}
    | {"dp_", "du_", "cn_", "plink_", "pyr_", "ipi_", "sli_", "cbtxn_", "trr_", "fr_", "iar_"}
)
"""The type prefixes of Stripe's object ids (a charge ``ch_…``, an event ``evt_…``, a
customer ``cus_…``): an id names a record and opens nothing; Stripe's keys are ``sk_``,
``rk_``, ``pk_`` with a stage, and ``whsec_``."""


def _vendor(match: re.Match[str]) -> str:
    body = match.group("body")
    if match.group("prefix") in _OBJECT_PREFIXES:
        return match.group(0)
    if not random_body(body) and not hex_key(match.group("prefix"), body):
        return match.group(0)
    return match.group("prefix") + _SECRET


VENDOR_KEYS: Final = WordFamily(
    name="vendor keys by shape",
    hint=lambda shape: len(shape) >= 23 and _VENDOR_HINT(shape) is not None,
    pattern=_VENDOR,
    replace=_vendor,
)

_BASE64_LINE: Final = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/=])")
_PATH_PART: Final = re.compile(r"(?:^|/)[a-z]{3,}(?:/|$)").search


_DIGEST_SIZES: Final = {"sha1": 27, "sha256": 43, "sha384": 64, "sha512": 86, "h1": 43}
"""Unpadded base64 lengths of the digests an SSH key fingerprint, a Subresource Integrity
value (``sha512-…``) and a go.sum line (``h1:``, SHA-256) are written with."""
_DIGEST_NAME: Final = re.compile(r"(?i)(?<![A-Za-z0-9])(sha1|sha256|sha384|sha512|h1)[:\-]$").search
_DIGEST_LEAD: Final = re.compile(r"(?i)(sha1|sha256|sha384|sha512)-").match
"""A digest's name the run itself begins with (``-`` is a run's character)."""


def fingerprint(text: str, start: int, found: str) -> bool:
    """True when the run at ``start`` is the digest of a key fingerprint (OpenSSH's
    ``SHA256:uNiV…``): a public key's hash, of exactly its digest's length, names a key
    without opening anything."""
    inner = _DIGEST_LEAD(found)
    if inner is not None:
        rest = found[inner.end() :].rstrip("=")
        return len(rest) == _DIGEST_SIZES[inner.group(1).lower()]
    lead = 0
    while start - lead > 0 and text[start - lead - 1] in "+/":
        lead += 1  # a digest starting with ``+`` or ``/``, read from its first letter or digit
    name = _DIGEST_NAME(text[max(0, start - lead - 7) : start - lead])
    size = lead + len(found.rstrip("="))
    return name is not None and size == _DIGEST_SIZES[name.group(1).lower()]


def _base64_line(match: re.Match[str]) -> str:
    found = match.group(0)
    if fingerprint(match.string, match.start(), found):
        return found
    if found.startswith("/") or ("/" in found and _PATH_PART(found) is not None):
        return found
    if (
        found.isalpha()
        or not any(c.isupper() for c in found)
        or not any(c.islower() for c in found)
    ):
        return found
    if not any(c.isdigit() for c in found):
        return found
    return _SECRET


BASE64_LINES: Final = WordFamily(
    name="base64 key material lines",
    hint=lambda shape: len(shape) >= 40 and _BASE64_HINT(shape) is not None,
    pattern=_BASE64_LINE,
    replace=_base64_line,
)
