"""The run console: ``/ui/`` lists runs with filters, ``/ui/runs/{run_id}`` shows one run.

Each page calls the facade once or twice (``list_runs``, ``inspect_run``) and renders the
typed result (``console_pages.py``). When the server has a token the console needs it too:
open ``/ui/?token=<token>`` once, and the console answers with an HttpOnly, SameSite=Strict
cookie and a redirect to the same page without the token in its address; later pages carry the
cookie (an ``Authorization: Bearer`` header is accepted as well). Without a token the console,
like the API, is served on loopback only.
"""

from __future__ import annotations

import hmac
from typing import Annotated, Final
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factledger.adapters.http.console_pages import error_page, inspection_page, listing_page
from factledger.application.harness import Harness
from factledger.application.harness_errors import HarnessError, HarnessErrorCode
from factledger.domain.status import ReleaseOutcome

__all__ = ["CONSOLE_COOKIE", "console_router"]

CONSOLE_COOKIE: Final = "factledger_console"
"""The cookie that carries the token for the console's pages."""

_STATUS: Final = {
    HarnessErrorCode.UNKNOWN_RUN: 404,
    HarnessErrorCode.INVALID_INPUT: 422,
    HarnessErrorCode.STORE_UNAVAILABLE: 503,
}


class _Filters(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    outcome: ReleaseOutcome | None = None
    service: str | None = Field(default=None, max_length=200)
    cursor: str | None = Field(default=None, max_length=200)


def _html(page: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(
        page,
        status_code=status,
        headers={
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
            "form-action 'self'; frame-ancestors 'none'",
            "Cache-Control": "no-store",
        },
    )


def _refused(error: HarnessError) -> HTMLResponse:
    status = _STATUS.get(error.code, 500)
    return _html(error_page(error.code.value, str(error)), status)


def _authorised(request: Request, token: str | None) -> bool:
    if token is None:
        return True
    expected = token.encode("utf-8")
    given = request.cookies.get(CONSOLE_COOKIE, "")
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        given = header[7:]
    return hmac.compare_digest(given.encode("utf-8"), expected)


def _login(request: Request, token: str | None) -> Response | None:
    """A redirect that sets the cookie when the query carries the right token; a 401 page
    when the request is not authorised; None when it may go on."""
    given = request.query_params.get("token")
    if token is not None and given is not None:
        if not hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8")):
            return _html(error_page("UNAUTHORIZED", "The token is not the server's."), 401)
        rest = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
        location = request.url.path + (f"?{urlencode(rest)}" if rest else "")
        redirect = RedirectResponse(location, 303)
        redirect.set_cookie(CONSOLE_COOKIE, token, httponly=True, samesite="strict", path="/ui")
        return redirect
    if _authorised(request, token):
        return None
    return _html(
        error_page(
            "UNAUTHORIZED", "This server has a token: open /ui/?token=<token> once to sign in."
        ),
        401,
    )


def console_router(harness: Harness, token: str | None) -> APIRouter:
    """The console's pages over ``harness`` (``token``: the server's bearer token, if any)."""
    router = APIRouter(prefix="/ui", include_in_schema=False)

    @router.get("/", response_class=HTMLResponse)
    def runs_page(
        request: Request,
        outcome: Annotated[str | None, Query()] = None,
        service: Annotated[str | None, Query()] = None,
        cursor: Annotated[str | None, Query()] = None,
    ) -> Response:
        refused = _login(request, token)
        if refused is not None:
            return refused
        try:
            filters = _Filters(outcome=outcome or None, service=service or None, cursor=cursor)
        except ValidationError:
            return _html(error_page("INVALID_INPUT", "Unknown outcome or too long a value."), 422)
        try:
            page = harness.list_runs(
                limit=50, cursor=filters.cursor, outcome=filters.outcome, service=filters.service
            )
        except HarnessError as error:
            return _refused(error)
        return _html(listing_page(page, filters.outcome, filters.service))

    @router.get("/runs/{run_id}", response_class=HTMLResponse)
    def run_page(request: Request, run_id: str) -> Response:
        refused = _login(request, token)
        if refused is not None:
            return refused
        try:
            inspection = harness.inspect_run(run_id)
        except HarnessError as error:
            return _refused(error)
        return _html(inspection_page(inspection))

    return router
