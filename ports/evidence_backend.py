"""A port for the backend of an evidence tool of one's own.

A tool's backend is whatever fetches its raw result (a metrics store, a tracing API, a ticket
system). Behind this port the tool does not care which: an adapter takes the tool's typed
request and returns the backend's raw JSON text, or a ``BackendFailure`` with a safe reason
code. It gives up by itself after ``timeout_seconds``.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from returns.result import Result

from factledger.domain.tool_result import BackendFailure

__all__ = ["EvidenceBackend"]

R_contra = TypeVar("R_contra", contravariant=True)


class EvidenceBackend(Protocol[R_contra]):
    """Fetches the raw result of one request."""

    def fetch(self, request: R_contra, timeout_seconds: float, /) -> Result[str, BackendFailure]:
        """The backend's raw JSON text, or why there is none."""
        ...
