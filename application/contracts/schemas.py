"""Exported tool definitions: OpenAI function tools (strict mode) and MCP tools.

The OpenAI export follows strict mode's rules: every object lists all its properties as
required and sets ``additionalProperties: false``; optional values are nullable instead of
absent; references are inlined; keywords strict mode does not accept are dropped (the parser
still enforces them). The MCP export is the full JSON Schema of the envelope.
"""

from __future__ import annotations

import copy
from typing import cast

from pydantic import BaseModel

from factledger.domain.json_types import JsonObject, JsonValue

__all__ = ["OPENAI_STRICT_KEYWORDS", "mcp_tool", "openai_strict_problems", "openai_tool"]

OPENAI_STRICT_KEYWORDS = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "description", "enum",
        "const", "anyOf", "items", "pattern", "format", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
    }
)  # fmt: skip
"""Schema keywords kept in the OpenAI strict-mode export."""


def _inline(schema: JsonValue, definitions: JsonObject) -> JsonValue:
    if isinstance(schema, list):
        return [_inline(item, definitions) for item in schema]
    if not isinstance(schema, dict):
        return schema
    reference = schema.get("$ref")
    if isinstance(reference, str):
        target = definitions[reference.rsplit("/", 1)[-1]]
        merged = {**cast("JsonObject", target), **{k: v for k, v in schema.items() if k != "$ref"}}
        return _inline(merged, definitions)
    return {key: _inline(value, definitions) for key, value in schema.items() if key != "$defs"}


def _strict(schema: JsonValue) -> JsonValue:
    if isinstance(schema, list):
        return [_strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result: JsonObject = {}
    for key, value in schema.items():
        if key == "properties" and isinstance(value, dict):
            result[key] = {name: _strict(item) for name, item in value.items()}
        elif key in OPENAI_STRICT_KEYWORDS:
            result[key] = _strict(value)
    if result.get("type") == "object":
        properties = result.get("properties")
        names = sorted(properties) if isinstance(properties, dict) else []
        result["required"] = cast("JsonValue", names)
        result["additionalProperties"] = False
    return result


def openai_tool(name: str, description: str, model: type[BaseModel]) -> JsonObject:
    """The tool in OpenAI's function-tool format, valid for strict mode."""
    schema = cast("JsonObject", copy.deepcopy(model.model_json_schema()))
    definitions = cast("JsonObject", schema.get("$defs", {}))
    parameters = _strict(_inline(schema, definitions))
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": parameters,
            "strict": True,
        },
    }


def mcp_tool(name: str, description: str, model: type[BaseModel]) -> JsonObject:
    """The tool as an MCP tool definition."""
    return {
        "name": name,
        "description": description,
        "inputSchema": cast("JsonObject", copy.deepcopy(model.model_json_schema())),
    }


def openai_strict_problems(schema: JsonValue, path: str = "$") -> list[str]:
    """Where a schema breaks OpenAI strict mode (empty when it does not)."""
    problems: list[str] = []
    if isinstance(schema, list):
        for index, item in enumerate(schema):
            problems += openai_strict_problems(item, f"{path}[{index}]")
        return problems
    if not isinstance(schema, dict):
        return problems
    for key in schema:
        if key not in OPENAI_STRICT_KEYWORDS:
            problems.append(f"{path}: keyword {key!r} is not allowed in strict mode")
    if schema.get("type") == "object":
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            problems.append(f"{path}: an object needs properties")
        else:
            if sorted(properties) != sorted(cast("list[str]", schema.get("required", []))):
                problems.append(f"{path}: every property must be required")
            for name, value in properties.items():
                problems += openai_strict_problems(value, f"{path}.{name}")
        if schema.get("additionalProperties") is not False:
            problems.append(f"{path}: additionalProperties must be false")
    for key in ("anyOf", "items"):
        if key in schema:
            problems += openai_strict_problems(schema[key], f"{path}.{key}")
    return problems
