"""Errors as ``application/problem+json`` (RFC 9457), each with a stable ``code``.

Every title and detail comes from the table below: no exception text, no request content and no
stored content ever reaches a problem body. A validation problem lists where the request was
wrong (the error type and the field's location), never the values it carried.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from http import HTTPStatus

from attrs import frozen
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException as StarletteHTTPException

from factledger.application.harness import HarnessError

__all__ = [
    "PROBLEM_JSON",
    "FieldIssue",
    "Problem",
    "ProblemError",
    "install_problem_handlers",
    "problem_response",
]

PROBLEM_JSON = "application/problem+json"
"""The media type of every error response."""

_log = logging.getLogger(__name__)


@frozen
class _Kind:
    status: int
    title: str
    detail: str


_KINDS: Mapping[str, _Kind] = {
    # the facade's codes (HarnessError.code)
    "UNKNOWN_RUN": _Kind(404, "Unknown run", "No run with this id exists."),
    "UNKNOWN_TOOL_CALL": _Kind(404, "Unknown tool call", "No call with this id in this run."),
    "INVALID_INPUT": _Kind(422, "Invalid input", "The harness refused the input."),
    "STORE_UNAVAILABLE": _Kind(503, "Store unavailable", "The store could not be used; retry."),
    "RUN_NOT_ACTIVE": _Kind(409, "Run not in that state", "The run is not in a state for this."),
    "ALREADY_RELEASED": _Kind(
        409, "Already released", "The run was released (its result may have expired)."
    ),
    "CHECK_LIMIT_REACHED": _Kind(409, "No check left", "The run has used all its draft checks."),
    "MISSING_REQUIRED_CONTEXT": _Kind(
        409, "Missing context", "The run was started without a service and a time window."
    ),
    "LOG_CORRUPTED": _Kind(409, "Log does not verify", "The run's log does not verify."),
    "STORE_DIVERGED": _Kind(
        503, "Store diverged", "The store lost events this worker had read; retry."
    ),
    "INTERNAL_FAILURE": _Kind(500, "Internal failure", "The request could not be completed."),
    "NO_EVIDENCE_TOOLS": _Kind(409, "No evidence tools", "The harness has no evidence tool."),
    "NOT_CONFIGURED": _Kind(409, "Not configured", "What this needs is not configured."),
    # the transport's own codes
    "MALFORMED_BODY": _Kind(400, "Malformed body", "The body could not be read as JSON."),
    "UNAUTHORIZED": _Kind(401, "Unauthorized", "A valid bearer token is required."),
    "NOT_FOUND": _Kind(404, "Not found", "No such resource."),
    "METHOD_NOT_ALLOWED": _Kind(405, "Method not allowed", "This resource does not allow it."),
    "REQUEST_TOO_LARGE": _Kind(413, "Request too large", "The request body is over the limit."),
    "MISDIRECTED_REQUEST": _Kind(
        421, "Misdirected request", "This server does not answer for that host name."
    ),
    "INVALID_REQUEST": _Kind(422, "Invalid request", "The request does not match the schema."),
    "INTERNAL_ERROR": _Kind(500, "Internal error", "The request could not be served."),
}


class FieldIssue(BaseModel):
    """Where a request did not match the schema (never the value it carried)."""

    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True
    )

    type: str
    """The pydantic error type (``missing``, ``string_type``, ``extra_forbidden``...)."""
    loc: list[str | int]
    """Where: ``body``, ``query``, ``path`` or ``header``, then declared field names."""


class Problem(BaseModel):
    """An error response (RFC 9457) with a stable ``code``."""

    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True
    )

    type: str
    """``urn:factledger:problem:<CODE>``."""
    title: str
    """A short summary of the kind of problem."""
    status: int
    """The HTTP status code."""
    detail: str
    """A sentence for people (fixed per code)."""
    code: str
    """The stable code: a facade code (``UNKNOWN_RUN``...) or a transport code."""
    errors: list[FieldIssue] | None = None
    """For ``INVALID_REQUEST``: where the request was wrong."""


class ProblemError(Exception):
    """Raised inside the app to answer with the problem of ``code``."""

    def __init__(self, code: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(code)
        self.code = code
        """A code of the table."""
        self.headers = dict(headers or {})
        """Headers to send with it (``WWW-Authenticate``...)."""


def problem_response(
    code: str,
    *,
    status: int | None = None,
    errors: list[FieldIssue] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """The problem+json response of ``code`` (an unknown code is an internal error)."""
    kind = _KINDS.get(code)
    if kind is None:
        if status is None:
            code, kind = "INTERNAL_ERROR", _KINDS["INTERNAL_ERROR"]
        else:
            phrase = _phrase(status)
            kind = _Kind(status, phrase, f"{phrase}.")
    problem = Problem(
        type=f"urn:factledger:problem:{code}",
        title=kind.title,
        status=kind.status,
        detail=kind.detail,
        code=code,
        errors=errors,
    )
    return JSONResponse(
        problem.model_dump(exclude_none=True),
        status_code=kind.status,
        media_type=PROBLEM_JSON,
        headers=dict(headers or {}),
    )


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def _field_issues(error: RequestValidationError) -> list[FieldIssue]:
    issues: list[FieldIssue] = []
    for raw in error.errors():
        loc = [part for part in raw.get("loc", ()) if isinstance(part, str | int)]
        if raw.get("type") == "extra_forbidden" and loc:
            loc = loc[:-1]  # the last part is the unknown key the client sent
        issues.append(FieldIssue(type=str(raw.get("type", "invalid")), loc=loc))
    return issues


async def _on_harness_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HarnessError)
    return problem_response(exc.code.value)


async def _on_problem(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ProblemError)
    return problem_response(exc.code, headers=exc.headers)


async def _on_validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return problem_response("INVALID_REQUEST", errors=_field_issues(exc))


async def _on_http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = {
        400: "MALFORMED_BODY",
        404: "NOT_FOUND",
        405: "METHOD_NOT_ALLOWED",
        413: "REQUEST_TOO_LARGE",
    }.get(exc.status_code, f"HTTP_{exc.status_code}")
    return problem_response(code, status=exc.status_code, headers=exc.headers)


async def _on_unexpected(_: Request, exc: Exception) -> JSONResponse:
    _log.error("unexpected %s while serving a request", type(exc).__name__)
    return problem_response("INTERNAL_ERROR")


def install_problem_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` with problem+json."""
    app.add_exception_handler(HarnessError, _on_harness_error)
    app.add_exception_handler(ProblemError, _on_problem)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    app.add_exception_handler(Exception, _on_unexpected)
