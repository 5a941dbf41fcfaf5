"""What the logs tool needs from a log store."""

from __future__ import annotations

from typing import Protocol

from returns.result import Result

from factledger.domain.logs.query import LogQuery
from factledger.domain.tool_result import BackendFailure

__all__ = ["LogBackend"]


class LogBackend(Protocol):
    """A log store that answers one query with the raw JSON text of
    ``factledger.domain.logs.raw_format`` (records, exact matched count, limit flag).

    Zero matching records is a normal result (``matched_count`` 0), not a failure.
    """

    def query(self, query: LogQuery, *, deadline: float) -> Result[str, BackendFailure]:
        """The raw result, or why there is none.

        ``deadline`` is a ``time.monotonic()`` instant: past it the backend stops and returns
        ``BACKEND_TIMEOUT`` rather than a partial result.
        """
        ...
