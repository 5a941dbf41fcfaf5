"""``POST /runs/{run_id}/check`` and ``GET /runs/{run_id}/verification``: the release's guards
without the release, and the run's log and bodies verified; each calls the ``Harness`` once."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel

from factledger.adapters.http.issue_models import Verification
from factledger.adapters.http.models import CheckRequest, reply
from factledger.adapters.http.shapes import response_model
from factledger.application.check_result import CheckResult
from factledger.application.harness import Harness

__all__ = ["checks_router"]

RunId = Annotated[str, Path(description="The run's id.")]
CheckResultModel = response_model(CheckResult)

_CHECK_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"description": "No run with this id (`UNKNOWN_RUN`)."},
    409: {
        "description": "No check applies: `CHECK_LIMIT_REACHED`, `RUN_NOT_ACTIVE`, "
        "`ALREADY_RELEASED`, `MISSING_REQUIRED_CONTEXT` or `LOG_CORRUPTED`."
    },
    503: {"description": "The store could not be used (`STORE_UNAVAILABLE`, `STORE_DIVERGED`)."},
}
_VERIFY_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"description": "No run with this id (`UNKNOWN_RUN`)."},
    503: {"description": "The store could not be read (`STORE_UNAVAILABLE`)."},
}


def checks_router(harness: Harness) -> APIRouter:
    """The check and verification endpoints over ``harness``."""
    router = APIRouter(prefix="/runs", tags=["runs"])

    @router.post(
        "/{run_id}/check",
        response_model=CheckResultModel,
        responses=_CHECK_ERRORS,
        summary="Check a draft without releasing it",
    )
    def check(run_id: RunId, request: CheckRequest) -> BaseModel:
        """The EvidenceGuard and the SemanticGuard over the draft, as the release would run
        them; nothing is published and the run goes on. Each run has `[release]
        check_attempts` checks; every issue carries a reason code."""
        return reply(CheckResultModel, harness.check(run_id, request.draft).to_json())

    @router.get(
        "/{run_id}/verification",
        response_model=Verification,
        responses=_VERIFY_ERRORS,
        summary="Verify the run's log and bodies",
    )
    def verification(run_id: RunId) -> Verification:
        """The hash chain against the head kept outside the stream, then every vault body
        against its recorded digest; `first_bad_event` names where it breaks."""
        return reply(Verification, harness.verify(run_id).to_json())

    return router
