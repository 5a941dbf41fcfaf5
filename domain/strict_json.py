"""Strict JSON decoding, one definition for every reader of untrusted JSON.

Stricter than ``json.loads``: a key given twice in one object is an error (``DuplicateKey``),
and so are the non-standard constants ``NaN``, ``Infinity`` and ``-Infinity``
(``NonStandardConstant``). Both are ``ValueError``, like any other text that is not JSON;
a nesting deeper than the interpreter allows raises ``RecursionError``.
"""

from __future__ import annotations

import json
from typing import Final, Literal, TypeAlias

__all__ = ["DuplicateKey", "NonStandardConstant", "ObjectFault", "decode_strict", "object_fault"]

ObjectFault: TypeAlias = Literal["NOT_JSON", "NOT_AN_OBJECT", "DUPLICATE_KEY"]
"""Why a text is not one strict JSON object: not JSON (NaN and too deep a nesting included),
JSON but not an object, or an object that names a key twice."""


class DuplicateKey(ValueError):
    """An object names one key twice."""


class NonStandardConstant(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity``, which JSON does not have."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    document = dict(pairs)
    if len(document) != len(pairs):
        raise DuplicateKey
    return document


def _no_constant(_: str) -> object:
    raise NonStandardConstant


# One decoder for every call: ``json.loads`` with hooks builds a new one each time.
_DECODER: Final = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_no_constant)


def decode_strict(text: str) -> object:
    """The value of ``text``; raises ``ValueError`` (``DuplicateKey`` among them) or
    ``RecursionError``."""
    return _DECODER.decode(text)


def object_fault(text: str) -> ObjectFault | None:
    """Why ``text`` is not one strict JSON object, or None when it is one."""
    try:
        value = decode_strict(text)
    except DuplicateKey:
        return "DUPLICATE_KEY"
    except (ValueError, RecursionError):
        return "NOT_JSON"
    if not isinstance(value, dict):
        return "NOT_AN_OBJECT"
    return None
