"""The FastAPI application over one ``Harness``.

``create_app(harness, ApiOptions(...))`` wires the ``/runs`` endpoints, the bearer-token guard
(when a token is given), the body limit and problem+json errors, and an OpenAPI document that
says exactly that (``/openapi.json``; the document and ``/docs`` carry no run data and need no
token); the ``Host`` allowlist (``hosts.py``), run ownership (``access.py``) and the
operators' endpoints ``/healthz``, ``/metrics`` and ``/docs`` (``ops_routes.py``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from attrs import Attribute, field, frozen
from attrs.validators import deep_iterable, ge, gt
from fastapi import Depends, FastAPI

from factledger.adapters.distribution import installed_version
from factledger.adapters.http.access import RunAccess
from factledger.adapters.http.auth import bearer_guard
from factledger.adapters.http.check_routes import checks_router
from factledger.adapters.http.console_routes import console_router
from factledger.adapters.http.events import StreamLimits
from factledger.adapters.http.hosts import HostAllowlist, allowlist
from factledger.adapters.http.limits import BodyLimit
from factledger.adapters.http.listing_routes import listing_router
from factledger.adapters.http.metrics import PrometheusTelemetry
from factledger.adapters.http.openapi import openapi_document
from factledger.adapters.http.ops_routes import ops_router
from factledger.adapters.http.problems import install_problem_handlers
from factledger.adapters.http.routes import runs_router
from factledger.application.harness import Harness

__all__ = ["ApiOptions", "create_app"]

MIB = 1024 * 1024


def _usable_token(_: object, __: Attribute[str | None], token: str | None) -> None:
    if token is not None and not token.strip():
        raise ValueError("an empty bearer token would let every request in")


@frozen
class ApiOptions:
    """How the app guards and bounds its requests."""

    token: str | None = field(default=None, validator=_usable_token)
    """The bearer token every ``/runs`` request must carry; None: no authentication (the server
    then binds loopback only)."""
    tokens: tuple[str, ...] = field(default=(), validator=deep_iterable(_usable_token))
    """More accepted tokens, one per team or agent: each token's runs are its own."""
    max_body_bytes: int = field(default=MIB, validator=ge(0))
    """Largest request body; a larger one gets 413 REQUEST_TOO_LARGE."""
    events_max_wait_seconds: float = field(default=300.0, validator=gt(0))
    """Longest an event stream stays open waiting for the release."""
    events_poll_seconds: float = field(default=0.2, validator=gt(0))
    """Pause between two reads of a run's statuses while streaming."""
    events_keepalive_seconds: float = field(default=15.0, validator=gt(0))
    """Longest silence on an event stream before a keep-alive comment."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names served besides the loopback ones (``[http] allowed_hosts``); with a token
    and none given, every host name is served."""


def create_app(harness: Harness, options: ApiOptions | None = None) -> FastAPI:
    """The HTTP API over ``harness``; the caller keeps ownership of the harness."""
    options = options or ApiOptions()
    metrics = PrometheusTelemetry()
    stop_metrics = harness.add_telemetry(metrics)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        stop_metrics()

    app = FastAPI(
        title="factledger",
        version=installed_version(),
        summary="A deterministic control boundary around an LLM diagnosis agent.",
        description=(
            "Start a run, hand it the model's tool calls and get the observations back, "
            "release the agent's draft through the guards. Views are metadata and digests, "
            "never a raw body. Errors are `application/problem+json` with a stable `code`."
        ),
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    install_problem_handlers(app)
    app.add_middleware(BodyLimit, max_bytes=options.max_body_bytes)
    names, any_host = allowlist(bool(options.token or options.tokens), options.allowed_hosts)
    app.add_middleware(HostAllowlist, allowed=names, any_host=any_host)
    limits = StreamLimits(
        max_wait_seconds=options.events_max_wait_seconds,
        poll_seconds=options.events_poll_seconds,
        keepalive_seconds=options.events_keepalive_seconds,
    )
    guarded: dict[int | str, dict[str, Any]] = {}
    dependencies = []
    tokens = tuple(dict.fromkeys(((options.token,) if options.token else ()) + options.tokens))
    if tokens:
        dependencies.append(Depends(bearer_guard(tokens)))
        guarded[401] = {"description": "No or a wrong bearer token (`UNAUTHORIZED`)."}
    access = RunAccess(harness, tokens_configured=bool(tokens))
    dependencies.append(Depends(access.require))
    guarded[413] = {"description": "The body is over the limit (`REQUEST_TOO_LARGE`)."}
    guarded[422] = {"description": "The request does not match the schema (`INVALID_REQUEST`)."}
    guarded[500] = {"description": "An unexpected failure (`INTERNAL_ERROR`), never detailed."}
    for router in (listing_router(harness, access), runs_router(harness, limits, access)):
        app.include_router(router, dependencies=dependencies, responses=guarded)
    app.include_router(checks_router(harness), dependencies=dependencies, responses=guarded)
    app.include_router(console_router(harness, tokens))

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = openapi_document(app)
        return app.openapi_schema

    app.include_router(ops_router(harness, metrics, openapi))

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented override
    return app
