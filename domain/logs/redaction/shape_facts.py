"""What a word's shape alone decides, remembered across redactors.

A ``Redactor`` lives for one projection, so each query met its words' shapes anew and read
every family gate again for shapes the process had judged many times. The facts of a shape
(whether a word of it may be an IPv4 address, its shape plan, its context flags) depend on
the shape and nothing else, so they are kept here for every redactor of the process, up to
``SHAPES_REMEMBERED`` shapes (least recently used first out). The word hook's result for a
shape belongs to the hook and stays with the redactor.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from factledger.domain.logs.redaction.registry import key_families_gated
from factledger.domain.logs.redaction.word_gate import FAMILY_SHIFT, KeyKind, key_kind, shape_flags
from factledger.domain.logs.redaction.word_shapes import IPV4_SHAPE, Plan, plan_for

__all__ = ["SHAPES_REMEMBERED", "key_facts", "shape_facts"]

SHAPES_REMEMBERED: Final = 1 << 16
"""How many shapes (and, apart, how many keys) the process keeps the facts of."""


@lru_cache(maxsize=SHAPES_REMEMBERED)
def shape_facts(shape: str) -> tuple[bool, Plan, int]:
    """(whether a word of this shape may be an IPv4 address, its shape plan, its context
    flags): all independent of digit values and of the word hook."""
    maybe_address = "." in shape and IPV4_SHAPE(shape) is not None
    return maybe_address, plan_for(shape), shape_flags(shape)


@lru_cache(maxsize=SHAPES_REMEMBERED)
def key_facts(key: str) -> tuple[KeyKind, int]:
    """(what the value of a ``key=`` says it is, the flags of the text families the key
    gates) for a key written with its ``=``."""
    return key_kind(key), key_families_gated(key[:-1]) << FAMILY_SHIFT
