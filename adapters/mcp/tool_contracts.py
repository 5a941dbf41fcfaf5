"""What the server tells a host about each tool besides its input: annotations and the schema
of its structured content.

Every tool is annotated ``openWorldHint: false`` (it reaches only the configured runbooks,
logs and read-only databases, never the open web). The evidence tools, ``check_draft`` and
``verify_run`` are ``readOnlyHint: true``: they read and record, they change nothing outside
the harness's own log. ``start_run`` and ``release`` write the run's log (not destructive;
``release`` is idempotent: releasing again returns the first result).

Each ``outputSchema`` is the JSON Schema of the tool's answer or of a tool error (``{"error_code",
"message"}``), so every ``structuredContent`` the server sends validates against it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict

from factledger.adapters.http.check_routes import CheckResultModel
from factledger.adapters.http.issue_models import Verification
from factledger.adapters.http.models import Observation, ReleaseResultModel
from factledger.adapters.mcp.control_tools import CHECK_DRAFT, RELEASE, START_RUN, VERIFY_RUN
from factledger.domain.json_types import JsonObject

__all__ = ["annotations_of", "output_schema_of"]

_REF = "#/$defs/{model}"


class ToolError(BaseModel):
    """A tool error: a stable code and a sentence (never stored content)."""

    model_config = ConfigDict(extra="forbid")

    error_code: str
    message: str


class RunStarted(BaseModel):
    """``start_run``'s answer."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    session_bound: bool


_ANSWERS: dict[str, type[BaseModel]] = {
    START_RUN: RunStarted,
    RELEASE: ReleaseResultModel,
    CHECK_DRAFT: CheckResultModel,
    VERIFY_RUN: Verification,
}


def annotations_of(name: str) -> JsonObject:
    """The MCP annotations of tool ``name``."""
    writes = name in (START_RUN, RELEASE)
    return {
        "readOnlyHint": not writes,
        "destructiveHint": False,
        "idempotentHint": name != START_RUN,
        "openWorldHint": False,
    }


def _schema(model: type[BaseModel], definitions: dict[str, Any]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template=_REF)
    definitions.update(schema.pop("$defs", {}))
    definitions[model.__name__] = schema
    return {"$ref": _REF.format(model=model.__name__)}


@cache
def _output_schema(name: str) -> str:
    import json

    definitions: dict[str, Any] = {}
    answer = _ANSWERS.get(name, Observation)
    variants = [_schema(answer, definitions), _schema(ToolError, definitions)]
    return json.dumps({"type": "object", "anyOf": variants, "$defs": definitions})


def output_schema_of(name: str) -> JsonObject:
    """The JSON Schema of tool ``name``'s structured content (an evidence tool answers an
    observation)."""
    import json

    loaded: JsonObject = json.loads(_output_schema(name))
    return loaded
