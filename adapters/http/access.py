"""Run ownership on HTTP: with tokens, a run is usable only by the token that started it.

The principal of a request is the digest of the bearer token it carried (``auth.py`` records
it; none without tokens: the API is then loopback-only and every caller is the same person).
A request naming a run another principal started is answered 404 ``UNKNOWN_RUN``, exactly as a
run that does not exist.
"""

from __future__ import annotations

from fastapi import Request

from factledger.application.harness_parts import unknown_run
from factledger.application.run_access import RunOwners

__all__ = ["RunAccess", "principal_of"]


def principal_of(request: Request) -> str | None:
    """The principal the bearer guard recorded (None without tokens)."""
    principal = getattr(request.state, "principal", None)
    return principal if isinstance(principal, str) else None


class RunAccess:
    """The owners of the runs this app started, and the check every run route makes."""

    def __init__(self, owners: RunOwners | None = None) -> None:
        self._owners = owners or RunOwners()

    def started(self, run_id: str, request: Request) -> None:
        """The request's principal started ``run_id``."""
        self._owners.started(run_id, principal_of(request))

    def require(self, request: Request) -> None:
        """A dependency: refuse a run of another principal as ``UNKNOWN_RUN``."""
        run_id = request.path_params.get("run_id")
        if isinstance(run_id, str) and not self._owners.may_use(run_id, principal_of(request)):
            raise unknown_run()
