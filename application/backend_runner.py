"""Running a backend with a hard time limit.

A backend is asked to give up by itself after its timeout; the runner also waits no longer
than that (plus a small grace) so a backend that hangs cannot hang the run: the call ends as
BACKEND_TIMEOUT and the worker thread is left to finish on its own.
"""

from __future__ import annotations

import concurrent.futures
import threading

from returns.result import Failure, Result, Success

from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from factledger.ports.tools import ToolExecutor

__all__ = ["BackendRunner"]

_GRACE_SECONDS = 0.25


class BackendRunner:
    """A bounded pool of backend threads."""

    def __init__(self, max_workers: int = 16) -> None:
        self._max_workers = max_workers
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> concurrent.futures.ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = concurrent.futures.ThreadPoolExecutor(
                    max_workers=self._max_workers, thread_name_prefix="factledger-backend"
                )
            return self._pool

    def run(self, executor: ToolExecutor, timeout_seconds: float) -> Result[str, BackendFailure]:
        """The executor's raw text, or a failure: never an exception."""
        if timeout_seconds <= 0:
            return Failure(BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))
        future = self._executor().submit(_call, executor, timeout_seconds)
        try:
            return future.result(timeout=timeout_seconds + _GRACE_SECONDS)
        except concurrent.futures.TimeoutError:
            future.cancel()
            return Failure(BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))

    def shutdown(self) -> None:
        """Stop accepting work; running backends finish on their own."""
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None


def _call(executor: ToolExecutor, timeout_seconds: float) -> Result[str, BackendFailure]:
    try:
        outcome = executor(timeout_seconds)
    except Exception:  # a backend is foreign code: no exception text crosses the boundary
        return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "BACKEND_RAISED"))
    if isinstance(outcome, Success) and not isinstance(outcome.unwrap(), str):
        return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "NOT_TEXT"))
    if not isinstance(outcome, Success | Failure):
        return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "NOT_A_RESULT"))
    return outcome
