"""What a word's shape alone decides, remembered across redactors.

A ``Redactor`` lives for one projection, so each query met its words' shapes anew and read
every family gate again for shapes the process had judged many times. The facts of a shape
(whether a word of it may be an IPv4 address, its shape plan, its context flags) depend on
the shape and nothing else, so they are kept here for every redactor of the process, up to
``SHAPES_REMEMBERED`` shapes of at most ``LONGEST_REMEMBERED`` characters (least recently used
first out; a longer one is judged each time), so the memory stays under about 20 MB. The word
hook's result for a shape belongs to the hook and stays with the redactor.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from factledger.domain.logs.redaction.registry import key_families_gated
from factledger.domain.logs.redaction.word_gate import FAMILY_SHIFT, KeyKind, key_kind, shape_flags
from factledger.domain.logs.redaction.word_shapes import IPV4_SHAPE, Plan, plan_for

__all__ = ["LONGEST_REMEMBERED", "SHAPES_REMEMBERED", "key_facts", "shape_facts"]

SHAPES_REMEMBERED: Final = 1 << 16
"""How many shapes (and, apart, how many keys) the process keeps the facts of."""
LONGEST_REMEMBERED: Final = 128
"""The longest shape or key kept."""


def shape_facts(shape: str) -> tuple[bool, Plan, int]:
    """(whether a word of this shape may be an IPv4 address, its shape plan, its context
    flags): all independent of digit values and of the word hook."""
    if len(shape) > LONGEST_REMEMBERED:
        return _shape_facts(shape)
    return _remembered_shape(shape)


def _shape_facts(shape: str) -> tuple[bool, Plan, int]:
    maybe_address = "." in shape and IPV4_SHAPE(shape) is not None
    return maybe_address, plan_for(shape), shape_flags(shape)


def key_facts(key: str) -> tuple[KeyKind, int]:
    """(what the value of a ``key=`` says it is, the flags of the text families the key
    gates) for a key written with its ``=``."""
    if len(key) > LONGEST_REMEMBERED:
        return _key_facts(key)
    return _remembered_key(key)


def _key_facts(key: str) -> tuple[KeyKind, int]:
    return key_kind(key), key_families_gated(key[:-1]) << FAMILY_SHIFT


_remembered_shape: Final = lru_cache(maxsize=SHAPES_REMEMBERED)(_shape_facts)
_remembered_key: Final = lru_cache(maxsize=SHAPES_REMEMBERED)(_key_facts)
