"""The run console: ``/ui/`` lists runs with filters, ``/ui/runs/{run_id}`` shows one run.

Each page calls the facade once or twice (``list_runs``, ``inspect_run``) and renders the
typed result (``console_pages.py``). When the server has a token the console needs it too:
open ``/ui/?token=<token>`` once, and the console answers with an HttpOnly, SameSite=Strict
cookie and a redirect to the same page without the token in its address; later pages carry the
cookie (an ``Authorization: Bearer`` header is accepted as well). Behind a token the console,
like ``GET /runs``, shows only the runs that token started. Without a token the console, like
the API, is served on loopback only.
"""

from __future__ import annotations

from typing import Annotated, Final
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factledger.adapters.http.auth import matching_principal
from factledger.adapters.http.console_pages import error_page, inspection_page, listing_page
from factledger.application.harness import Harness
from factledger.application.harness_errors import HarnessError, HarnessErrorCode
from factledger.application.run_access import Caller
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


def _caller(request: Request, tokens: tuple[str, ...]) -> Caller | None:
    """The caller a request stands for; None when it carries none of the tokens."""
    if not tokens:
        return Caller(None, tokens_configured=False)
    given = request.cookies.get(CONSOLE_COOKIE, "")
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        given = header[7:]
    principal = matching_principal(given, tokens)
    return None if principal is None else Caller(principal, tokens_configured=True)


def _login(request: Request, tokens: tuple[str, ...]) -> Caller | Response:
    """A redirect that sets the cookie when the query carries a right token; a 401 page
    when the request is not authorised; else the caller it stands for."""
    given = request.query_params.get("token")
    if tokens and given is not None:
        if matching_principal(given, tokens) is None:
            return _html(error_page("UNAUTHORIZED", "The token is not the server's."), 401)
        rest = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
        location = request.url.path + (f"?{urlencode(rest)}" if rest else "")
        redirect = RedirectResponse(location, 303)
        redirect.set_cookie(CONSOLE_COOKIE, given, httponly=True, samesite="strict", path="/ui")
        return redirect
    caller = _caller(request, tokens)
    if caller is not None:
        return caller
    return _html(
        error_page(
            "UNAUTHORIZED", "This server has a token: open /ui/?token=<token> once to sign in."
        ),
        401,
    )


def console_router(harness: Harness, tokens: tuple[str, ...]) -> APIRouter:
    """The console's pages over ``harness`` (``tokens``: the server's bearer tokens, if any);
    behind a token each page shows only the runs that token started."""
    router = APIRouter(prefix="/ui", include_in_schema=False)

    @router.get("/", response_class=HTMLResponse)
    def runs_page(
        request: Request,
        outcome: Annotated[str | None, Query()] = None,
        service: Annotated[str | None, Query()] = None,
        cursor: Annotated[str | None, Query()] = None,
    ) -> Response:
        caller = _login(request, tokens)
        if not isinstance(caller, Caller):
            return caller
        try:
            filters = _Filters(outcome=outcome or None, service=service or None, cursor=cursor)
        except ValidationError:
            return _html(error_page("INVALID_INPUT", "Unknown outcome or too long a value."), 422)
        try:
            page = harness.list_runs(
                limit=50,
                cursor=filters.cursor,
                outcome=filters.outcome,
                service=filters.service,
                caller=caller,
            )
        except HarnessError as error:
            return _refused(error)
        return _html(listing_page(page, filters.outcome, filters.service))

    @router.get("/runs/{run_id}", response_class=HTMLResponse)
    def run_page(request: Request, run_id: str) -> Response:
        caller = _login(request, tokens)
        if not isinstance(caller, Caller):
            return caller
        try:
            harness.require_access(run_id, caller)
            inspection = harness.inspect_run(run_id)
        except HarnessError as error:
            return _refused(error)
        return _html(inspection_page(inspection))

    return router
