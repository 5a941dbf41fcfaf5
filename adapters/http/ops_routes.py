"""``GET /healthz``, ``GET /metrics`` and ``GET /docs``: what operators and probes read.

``/healthz`` asks the facade whether the store and the audit answer and how the workers are
doing: 200 while the store and the audit answer (``status`` ``ok``, or ``degraded`` when the
workers are not OK), 503 otherwise, JSON either way. ``/metrics`` is the app's own Prometheus
registry in the text format. ``/docs`` is the API's operations as one self-contained page built
from the OpenAPI document (no script, style or font from another host: it works offline).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, JsonValue
from starlette.concurrency import run_in_threadpool

from factledger.adapters.http.metrics import CONTENT_TYPE, PrometheusTelemetry
from factledger.application.harness import Harness
from factledger.application.harness_health import HealthLine, Reachability

__all__ = ["docs_page", "ops_router"]


class HealthModel(BaseModel):
    """The health of the store, the audit and the workers."""

    model_config = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)

    status: HealthLine
    """``ok``, ``degraded`` (serving; the workers are not OK) or ``unavailable``."""
    store: Reachability
    """``OK`` or ``UNAVAILABLE``."""
    audit: Reachability
    """``OK``, ``UNAVAILABLE`` or ``NOT_CONFIGURED``."""
    workers: dict[str, JsonValue] | None
    """The workers' line: status, problems, live workers, lag and purge age (null when the
    audit cannot be read)."""


_HEALTH: dict[int | str, dict[str, Any]] = {
    200: {"description": "The store and the audit answer (`status` ok or degraded)."},
    503: {
        "model": HealthModel,
        "description": "The store or the audit does not answer (`status` unavailable).",
    },
}


def ops_router(
    harness: Harness, metrics: PrometheusTelemetry, document: Callable[[], dict[str, Any]]
) -> APIRouter:
    """The health, metrics and docs endpoints."""
    router = APIRouter(tags=["operations"])

    @router.get(
        "/healthz",
        response_model=HealthModel,
        responses=_HEALTH,
        summary="Health of the store, audit and workers",
    )
    async def healthz() -> JSONResponse:
        """The store's and the audit's reachability and the workers' health line."""
        health = await run_in_threadpool(harness.health)
        return JSONResponse(health.to_json(), status_code=200 if health.healthy else 503)

    @router.get(
        "/metrics",
        response_class=Response,
        responses={200: {"content": {CONTENT_TYPE: {}}, "description": "Prometheus text."}},
        summary="Metrics in the Prometheus text format",
    )
    async def prometheus() -> Response:
        """Tool calls, releases, guard violations, budget refusals and latencies."""
        return Response(metrics.exposition(), media_type=CONTENT_TYPE)

    @router.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(docs_page(document()))

    return router


_STYLE = (
    "body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
    "code{background:#f3f3f3;padding:0 .25rem}h2{margin-top:2rem}"
    ".op{border-top:1px solid #ddd;padding:.5rem 0}.m{font-weight:700;display:inline-block;"
    "min-width:4.5rem}"
)


def _operation(method: str, path: str, operation: dict[str, Any]) -> str:
    summary = html.escape(str(operation.get("summary", "")))
    description = html.escape(str(operation.get("description", "")))
    codes = ", ".join(html.escape(str(code)) for code in operation.get("responses", {}))
    return (
        f'<div class="op"><span class="m">{html.escape(method.upper())}</span>'
        f"<code>{html.escape(path)}</code> — {summary}<br>{description}"
        f"<br><small>answers: {codes}</small></div>"
    )


def docs_page(document: dict[str, Any]) -> str:
    """The operations of ``document`` as a page that needs nothing from another host."""
    info = document.get("info", {})
    sections = [
        _operation(method, path, operation)
        for path, operations in document.get("paths", {}).items()
        for method, operation in operations.items()
    ]
    title = html.escape(str(info.get("title", "API")))
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title} API</title><style>{_STYLE}</style></head><body>"
        f"<h1>{title} {html.escape(str(info.get('version', '')))}</h1>"
        f"<p>{html.escape(str(info.get('description', '')))}</p>"
        f'<p>The machine-readable document: <a href="/openapi.json">/openapi.json</a>.</p>'
        f"<h2>Operations</h2>{''.join(sections)}</body></html>"
    )
