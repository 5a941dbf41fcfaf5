"""The OpenAPI document, finished: every error is problem+json, the event stream is described
event by event.

FastAPI documents its own validation error shape (this API never sends it) and a plain string
for a streaming response; both are replaced here, so that the document says exactly what the
server answers, and schemathesis can hold the server to it.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from factledger.adapters.http.events import EVENT_MODELS, EVENT_SCHEMA
from factledger.adapters.http.problems import PROBLEM_JSON, Problem

__all__ = ["openapi_document"]

_REF = "#/components/schemas/{model}"


def openapi_document(app: FastAPI) -> dict[str, Any]:
    """The document of ``app`` (FastAPI's, then finished as the module docstring says)."""
    document = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
    )
    schemas: dict[str, Any] = document.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    for model in (Problem, *EVENT_MODELS):
        schema = model.model_json_schema(ref_template=_REF)
        schemas.update(schema.pop("$defs", {}))
        schemas[model.__name__] = schema
    problem = {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            responses: dict[str, Any] = operation.setdefault("responses", {})
            responses.setdefault("default", {"description": "Another error (problem+json)."})
            for status, response in responses.items():
                if status == "default" or status.startswith(("4", "5")):
                    if not _own_model(response):
                        response["content"] = problem
                    continue
                stream = response.get("content", {}).get("text/event-stream")
                if stream is not None:
                    stream["schema"] = EVENT_SCHEMA
    return document


def _own_model(response: dict[str, Any]) -> bool:
    """True for an error response that documents a body of its own (``/healthz``'s 503)."""
    schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    reference = schema.get("$ref", "") if isinstance(schema, dict) else ""
    return bool(reference) and not reference.endswith("/HTTPValidationError")
