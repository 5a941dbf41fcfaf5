"""Response models derived from the facade's typed results: one definition, two uses.

A typed result (an attrs record such as ``ReleaseResult`` or ``CanonicalView``) is the one
definition of its shape. Its ``to_json()`` is what every transport sends, and the HTTP API's
response model is built here from the same fields: the field names, their types (enumerations
with their values, nested records as their own schemas, tuples as arrays, instants as
``date-time`` text) and their attribute docstrings as descriptions. Adding a field to a result
therefore changes the JSON, the response validation and the OpenAPI document together.
"""

from __future__ import annotations

import ast
import functools
import inspect
import operator
import textwrap
import types
import typing
from datetime import datetime
from functools import cache
from typing import Literal, Union

import attrs
from pydantic import BaseModel, ConfigDict, Field, JsonValue, create_model

from factledger.domain.json_shape import field_hints
from factledger.domain.json_types import JsonObject
from factledger.domain.json_types import JsonValue as DomainJsonValue

__all__ = ["response_model"]

_CONFIG = ConfigDict(extra="forbid", strict=True, frozen=True)


@cache
def response_model(cls: type) -> type[BaseModel]:
    """The strict pydantic model of a record class (named after it; cached)."""
    if not attrs.has(cls):
        raise TypeError(f"{cls.__name__} is not a record class")
    hints = field_hints(cls)
    docs = _attribute_docs(cls)
    fields: dict[str, object] = {
        field.name: (
            _annotation(hints[field.name]),
            Field(description=docs.get(field.name)),
        )
        for field in attrs.fields(cls)
    }
    model: type[BaseModel] = create_model(  # type: ignore[call-overload]  # run-time fields
        cls.__name__, __config__=_CONFIG, __doc__=_first_paragraph(cls), **fields
    )
    return model


def _annotation(hint: object) -> object:
    if hint is DomainJsonValue:
        return JsonValue
    if hint == JsonObject:
        return dict[str, JsonValue]
    origin = typing.get_origin(hint)
    if origin is Union or origin is types.UnionType:
        options = tuple(_annotation(option) for option in typing.get_args(hint))
        return functools.reduce(operator.or_, options)
    if origin is tuple or origin is list:
        return types.GenericAlias(list, (_annotation(typing.get_args(hint)[0]),))
    if origin is dict:
        key, value = typing.get_args(hint)
        return types.GenericAlias(dict, (key, _annotation(value)))
    if origin is Literal or hint is datetime or hint is None or hint is type(None):
        return hint
    if isinstance(hint, type) and attrs.has(hint):
        return response_model(hint)
    return hint


def _first_paragraph(cls: type) -> str:
    doc = inspect.getdoc(cls) or cls.__name__
    return doc.split("\n\n", 1)[0]


def _attribute_docs(cls: type) -> dict[str, str]:
    """Each field's attribute docstring (the string right under it), from every class that
    declares fields, base classes first."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not attrs.has(klass):
            continue
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):
            continue
        body = ast.parse(source).body[0]
        if not isinstance(body, ast.ClassDef):
            continue
        for current, following in zip(body.body, body.body[1:], strict=False):
            if (
                isinstance(current, ast.AnnAssign)
                and isinstance(current.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                docs[current.target.id] = inspect.cleandoc(following.value.value)
    return docs
