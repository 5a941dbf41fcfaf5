"""Run ownership on HTTP: with a token, a run is usable only by the token that started it.

The principal of a request is its bearer token's digest (none without a token: the API is then
loopback-only and every caller is the same person). A request naming a run another principal
started is answered 404 ``UNKNOWN_RUN``, exactly as a run that does not exist.
"""

from __future__ import annotations

from fastapi import Request

from factledger.application.harness_parts import unknown_run
from factledger.application.run_access import RunOwners, token_principal

__all__ = ["RunAccess"]


class RunAccess:
    """The owners of the runs this app started, and the check every run route makes."""

    def __init__(self, token: str | None, owners: RunOwners | None = None) -> None:
        self._principal = None if token is None else token_principal(token)
        self._owners = owners or RunOwners()

    def started(self, run_id: str) -> None:
        """The request's principal started ``run_id``."""
        self._owners.started(run_id, self._principal)

    def require(self, request: Request) -> None:
        """A dependency: refuse a run of another principal as ``UNKNOWN_RUN``."""
        run_id = request.path_params.get("run_id")
        if isinstance(run_id, str) and not self._owners.may_use(run_id, self._principal):
            raise unknown_run()
