"""One JSON shape per record class: attrs values to JSON and back, by their fields.

A record's JSON is its attrs fields in order, each value encoded by its kind: an enum member
as its value, an instant as ISO-8601 text, a tuple as a list, a nested record as its own JSON.
Decoding reads the same shape back under the field annotations and refuses anything else
(a missing or unknown key, a wrong type, an enum value that does not exist), naming where.
Because both directions come from the fields, a new field is one edit: every serialisation
and every transport that builds on the record follows it.
"""

from __future__ import annotations

import sys
import types
import typing
from datetime import datetime
from enum import Enum
from functools import cache
from typing import Final, Literal, TypeVar, Union

import attrs

from factledger.domain.json_types import JsonObject, JsonScalar, JsonValue

__all__ = [
    "JsonRecord",
    "ShapeError",
    "field_hints",
    "from_json_value",
    "record_json",
    "to_json_value",
]

T = TypeVar("T")

_JSON_NAMES: Final = {"JsonValue": JsonValue, "JsonObject": JsonObject, "JsonScalar": JsonScalar}


class ShapeError(ValueError):
    """A JSON value does not have the shape of the record; the message names where."""


def to_json_value(value: object) -> JsonValue:
    """The JSON value of a record (or of anything a record field may hold)."""
    if isinstance(value, Enum):
        return to_json_value(value.value)
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [to_json_value(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_json_value(item) for key, item in value.items()}
    if attrs.has(type(value)):
        return {
            field.name: to_json_value(getattr(value, field.name))
            for field in attrs.fields(typing.cast("type[attrs.AttrsInstance]", type(value)))
        }
    raise TypeError(f"no JSON shape for a {type(value).__name__}")


def record_json(record: attrs.AttrsInstance) -> JsonObject:
    """The JSON object of one record."""
    encoded = to_json_value(record)
    assert isinstance(encoded, dict)
    return encoded


class JsonRecord:
    """The base of a record class whose JSON is its fields (``record_json``): one definition of
    ``to_json`` for every such record."""

    __slots__ = ()

    def to_json(self: attrs.AttrsInstance) -> JsonObject:
        """The record as JSON: its fields in order, each encoded by its kind."""
        return record_json(self)


@cache
def field_hints(cls: type) -> dict[str, object]:
    """The evaluated annotation of every field of a record class (the JSON aliases kept as
    they are, so that a JSON-valued field is recognised as one)."""
    hints: dict[str, object] = {}
    for field in attrs.fields(typing.cast("type[attrs.AttrsInstance]", cls)):
        annotation = field.type
        if isinstance(annotation, str):
            owner = next(k for k in cls.__mro__ if field.name in vars(k).get("__annotations__", {}))
            namespace = dict(vars(sys.modules[owner.__module__]))
            annotation = eval(annotation, namespace, dict(_JSON_NAMES))  # an annotation's text
        hints[field.name] = annotation
    return hints


def from_json_value(cls: type[T], data: object) -> T:
    """The record of class ``cls`` whose JSON is ``data`` (``ShapeError`` when it is not)."""
    return typing.cast("T", _decode(cls, data, cls.__name__))


def _decode(hint: object, data: object, where: str) -> object:
    if hint is JsonValue or hint == JsonObject:
        return _json(hint, data, where)
    origin = typing.get_origin(hint)
    if origin is Union or origin is types.UnionType:
        return _union(typing.get_args(hint), data, where)
    if origin is Literal:
        if data not in typing.get_args(hint):
            raise ShapeError(f"{where}: not one of the allowed values")
        return data
    if origin is tuple or origin is list:
        if not isinstance(data, list):
            raise ShapeError(f"{where}: expected a list")
        item = typing.get_args(hint)[0]
        items = [_decode(item, value, f"{where}[{index}]") for index, value in enumerate(data)]
        return tuple(items) if origin is tuple else items
    if origin is dict:
        if not isinstance(data, dict):
            raise ShapeError(f"{where}: expected an object")
        item = typing.get_args(hint)[1]
        return {key: _decode(item, value, f"{where}.{key}") for key, value in data.items()}
    if isinstance(hint, type):
        return _typed(hint, data, where)
    if hint is None or hint is type(None):
        _none(data, where)
        return None
    raise ShapeError(f"{where}: no JSON shape for {hint!r}")


def _typed(hint: type, data: object, where: str) -> object:
    if attrs.has(hint):
        return _record(hint, data, where)
    if issubclass(hint, Enum):
        try:
            return hint(data)
        except ValueError:
            raise ShapeError(f"{where}: not a {hint.__name__}") from None
    if hint is datetime:
        if not isinstance(data, str):
            raise ShapeError(f"{where}: expected an ISO-8601 instant")
        try:
            return datetime.fromisoformat(data)
        except ValueError:
            raise ShapeError(f"{where}: expected an ISO-8601 instant") from None
    if hint is type(None):
        _none(data, where)
        return None
    if hint is float and isinstance(data, int) and not isinstance(data, bool):
        return float(data)
    if hint is int and isinstance(data, bool):
        raise ShapeError(f"{where}: expected an int")
    if not isinstance(data, hint):
        raise ShapeError(f"{where}: expected a {hint.__name__}")
    return data


def _record(cls: type, data: object, where: str) -> object:
    if not isinstance(data, dict):
        raise ShapeError(f"{where}: expected an object")
    fields = attrs.fields(typing.cast("type[attrs.AttrsInstance]", cls))
    names = {field.name for field in fields}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ShapeError(f"{where}: unknown key {unknown[0]!r}")
    hints = field_hints(cls)
    values: dict[str, object] = {}
    for field in fields:
        if field.name not in data:
            if field.default is attrs.NOTHING:
                raise ShapeError(f"{where}: missing key {field.name!r}")
            continue
        decoded = _decode(hints[field.name], data[field.name], f"{where}.{field.name}")
        if field.init:
            values[field.name] = decoded
    try:
        return cls(**values)
    except (TypeError, ValueError):
        raise ShapeError(f"{where}: the values do not make a {cls.__name__}") from None


def _union(options: tuple[object, ...], data: object, where: str) -> object:
    if data is None and type(None) in options:
        return None
    errors: list[str] = []
    for option in options:
        if option is type(None):
            continue
        try:
            return _decode(option, data, where)
        except ShapeError as wrong:
            errors.append(str(wrong))
    raise ShapeError(errors[0] if errors else f"{where}: expected null")


def _none(data: object, where: str) -> None:
    if data is not None:
        raise ShapeError(f"{where}: expected null")


def _json(hint: object, data: object, where: str) -> object:
    if hint == JsonObject and not isinstance(data, dict):
        raise ShapeError(f"{where}: expected an object")
    return data
