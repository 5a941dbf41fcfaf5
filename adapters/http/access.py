"""Run ownership on HTTP: with tokens, a run is usable only by the token that started it.

The principal of a request is the digest of the bearer token it carried (``auth.py`` records
it; none without tokens: the API is then loopback-only). A run records its starter's digest
in its own log, and the facade's ``require_access`` applies the one rule
(``application/run_access.py``): a request naming a run another principal started, or, behind
a token, a run nobody owns, is answered 404 ``UNKNOWN_RUN``, exactly as a run that does not
exist. ``GET /runs`` and the console list only the caller's runs the same way.
"""

from __future__ import annotations

from fastapi import Request

from factledger.application.harness import Harness
from factledger.application.run_access import Caller

__all__ = ["RunAccess", "principal_of"]


def principal_of(request: Request) -> str | None:
    """The principal the bearer guard recorded (None without tokens)."""
    principal = getattr(request.state, "principal", None)
    return principal if isinstance(principal, str) else None


class RunAccess:
    """Who a request is, and the check every run route makes."""

    def __init__(self, harness: Harness, *, tokens_configured: bool) -> None:
        self._harness = harness
        self._tokens = tokens_configured

    def caller(self, request: Request) -> Caller:
        """The caller a request stands for."""
        return Caller(principal_of(request), self._tokens)

    def require(self, request: Request) -> None:
        """A dependency: refuse a run the caller may not use as ``UNKNOWN_RUN``."""
        run_id = request.path_params.get("run_id")
        if isinstance(run_id, str):
            self._harness.require_access(run_id, self.caller(request))
