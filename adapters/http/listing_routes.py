"""``GET /runs``: the recorded runs, newest first, a page at a time, filtered by outcome or
service, only the caller's runs behind a token; one call to ``Harness.list_runs``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from factledger.adapters.http.access import RunAccess
from factledger.adapters.http.models import reply
from factledger.adapters.http.shapes import response_model
from factledger.application.harness import Harness
from factledger.application.run_listing import MAX_PAGE, RunPage
from factledger.domain.status import ReleaseOutcome

__all__ = ["RunPageModel", "RunsQuery", "listing_router"]

RunPageModel = response_model(RunPage)

_ERRORS: dict[int | str, dict[str, Any]] = {
    503: {"description": "The store could not be read (`STORE_UNAVAILABLE`)."},
}


class RunsQuery(BaseModel):
    """``GET /runs``: the query (an unknown parameter is refused)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    limit: int = Field(default=20, ge=1, le=MAX_PAGE)
    """Runs per page."""
    cursor: str | None = Field(default=None, min_length=1, max_length=200)
    """The ``next_cursor`` of the previous page."""
    outcome: ReleaseOutcome | None = None
    """Only runs released with this outcome."""
    service: str | None = Field(default=None, min_length=1, max_length=200)
    """Only runs diagnosing this service."""


def listing_router(harness: Harness, access: RunAccess) -> APIRouter:
    """``GET /runs`` over ``harness``: the runs ``access`` lets the caller use."""
    router = APIRouter(prefix="/runs", tags=["runs"])

    @router.get("", response_model=RunPageModel, responses=_ERRORS, summary="List runs")
    def list_runs(query: Annotated[RunsQuery, Query()], request: Request) -> BaseModel:
        """Recorded runs, newest first: question digest and size, service, window, release
        outcome (a FALLBACK run lists FALLBACK), fallback type, calls and start. Pass a page's
        `next_cursor` as `cursor` for the next page. Behind a token, only the runs this
        token started."""
        page = harness.list_runs(
            limit=query.limit,
            cursor=query.cursor,
            outcome=query.outcome,
            service=query.service,
            caller=access.caller(request),
        )
        return reply(RunPageModel, page.to_json())

    return router
