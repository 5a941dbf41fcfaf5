"""Strict parsing of a tool call's arguments into its envelope.

Refused, each with a short reason code: arguments over the size limit, text that is not one
JSON object (trailing tokens, an array, a scalar), duplicate keys at any depth, NaN or
Infinity, unknown fields, missing fields, wrong types (no coercion: ``"5"`` is not 5), values
out of range. A ``ValidationError`` never leaves this module; no input text is echoed.
"""

from __future__ import annotations

from typing import TypeVar

from attrs import frozen
from pydantic import BaseModel, ValidationError

from factledger.domain.strict_json import object_fault

__all__ = ["MAX_ARGUMENT_BYTES", "EnvelopeError", "parse_envelope"]

MAX_ARGUMENT_BYTES = 64 * 1024
"""Arguments larger than this are refused before any parsing."""

M = TypeVar("M", bound=BaseModel)


@frozen
class EnvelopeError:
    """Arguments that do not make a valid envelope (observation code INVALID_ENVELOPE)."""

    reason: str
    """``TOO_LARGE``, ``NOT_JSON``, ``NOT_AN_OBJECT``, ``DUPLICATE_KEY``, ``UNKNOWN_FIELD``,
    ``MISSING_FIELD``, ``WRONG_TYPE``, ``INVALID_VALUE`` or (a list of evaluations naming
    one call twice) ``DUPLICATE_EVALUATION``."""


# A union field (one evaluation or a list of them) reports, beside the real error, that the
# value is not of the other branch's kind: that report says nothing when another is given.
_BRANCH_KINDS = frozenset({"model_type", "list_type"})


def _reason(error: ValidationError) -> str:
    kinds = {item["type"] for item in error.errors()}
    if kinds - _BRANCH_KINDS:
        kinds -= _BRANCH_KINDS
    if "extra_forbidden" in kinds:
        return "UNKNOWN_FIELD"
    if "missing" in kinds:
        return "MISSING_FIELD"
    if any(kind.endswith("_type") or kind.endswith("_parsing") for kind in kinds):
        return "WRONG_TYPE"
    return "INVALID_VALUE"


def parse_envelope(model: type[M], arguments_json: str) -> M | EnvelopeError:
    """The envelope, or why the arguments are not one."""
    if len(arguments_json) > MAX_ARGUMENT_BYTES or (
        len(arguments_json.encode("utf-8")) > MAX_ARGUMENT_BYTES
    ):
        return EnvelopeError("TOO_LARGE")
    fault = object_fault(arguments_json)
    if fault is not None:
        return EnvelopeError(fault)
    try:
        return model.model_validate_json(arguments_json, strict=True)
    except ValidationError as invalid:
        return EnvelopeError(_reason(invalid))
