"""Converting the port's row values to column values and back.

Each row class maps field for field onto its table (same names); enumerations are stored as
their values and read back into their enum class. The converters are built once per class
from its attrs fields and their annotations.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Final, TypeVar

import attrs
from sqlalchemy import RowMapping

from factledger.ports.audit import InvocationRow, RunRow, TransitionRow, UsageRow

__all__ = ["from_columns", "to_columns"]

R = TypeVar("R", InvocationRow, RunRow, TransitionRow, UsageRow)
_Plan = tuple[tuple[str, type[Enum] | None], ...]
_PLANS: Final[dict[type, _Plan]] = {}


def _enum_in(annotation: object) -> type[Enum] | None:
    options = typing.get_args(annotation) if isinstance(annotation, types.UnionType) else ()
    for option in options or (annotation,):
        if isinstance(option, type) and issubclass(option, Enum):
            return option
    return None


def _plan(cls: type) -> _Plan:
    plan = _PLANS.get(cls)
    if plan is None:
        hints = typing.get_type_hints(cls)
        plan = tuple(
            (field.name, _enum_in(hints[field.name]))
            for field in attrs.fields(typing.cast("type[attrs.AttrsInstance]", cls))
        )
        _PLANS[cls] = plan
    return plan


def to_columns(row: InvocationRow | RunRow | TransitionRow | UsageRow) -> dict[str, object]:
    """The column values of a row."""
    values: dict[str, object] = {}
    for name, _ in _plan(type(row)):
        value = getattr(row, name)
        values[name] = value.value if isinstance(value, Enum) else value
    return values


def from_columns(cls: type[R], columns: Mapping[str, object] | RowMapping) -> R:
    """A row value from its column values."""
    values: dict[str, object] = {}
    for name, enum in _plan(cls):
        value = columns[name]
        values[name] = enum(value) if enum is not None and value is not None else value
    build: Callable[..., R] = cls
    return build(**values)
