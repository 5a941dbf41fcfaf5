"""Running a backend with a hard time limit.

A backend is asked to give up by itself after its timeout; the runner also waits no longer
than that (plus a small grace) so a backend that hangs cannot hang the run: the call ends as
BACKEND_TIMEOUT and the worker thread is left to finish on its own (a hung thread is
replaced, so the pool keeps its size). The hand-off is a queue and a one-shot lock per call,
the cheapest wake-up the standard library offers.
"""

from __future__ import annotations

import threading

from attrs import define, field
from returns.result import Failure, Result, Success

from factledger.application.daemon_threads import DaemonThreads
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from factledger.ports.tools import ToolExecutor

__all__ = ["BackendRunner", "run_inline"]

_GRACE_SECONDS = 0.25


@define
class _Job:
    executor: ToolExecutor
    timeout_seconds: float
    done: threading.Lock
    outcome: Result[str, BackendFailure] | None = None
    abandoned: bool = field(default=False)

    def given_up(self) -> bool:
        """True once the caller stopped waiting (set from another thread at any time)."""
        return self.abandoned


class BackendRunner(DaemonThreads[_Job]):
    """A pool of daemon threads that run backends for callers who wait with a time limit."""

    def __init__(self, workers: int = 8) -> None:
        super().__init__()
        self._idle = 0
        self._target = workers

    def run(self, executor: ToolExecutor, timeout_seconds: float) -> Result[str, BackendFailure]:
        """The executor's raw text, or a failure: never an exception."""
        if timeout_seconds <= 0:
            return Failure(BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))
        done = threading.Lock()
        done.acquire()
        job = _Job(executor, timeout_seconds, done)
        self._ensure_worker()
        self._jobs.put(job)
        if done.acquire(timeout=timeout_seconds + _GRACE_SECONDS) and job.outcome is not None:
            return job.outcome
        job.abandoned = True
        with self._lock:
            self._threads -= 1  # that worker is stuck in the backend: count a fresh one in
        return Failure(BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))

    def _ensure_worker(self) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("the backend runner is shut down")
            if self._idle > 0 or self._threads >= self._target:
                self._idle = max(0, self._idle - 1)
                return
            self._threads += 1
        threading.Thread(target=self._work, name="factledger-backend", daemon=True).start()

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            if job.given_up():  # its caller gave up before it started: do not run it
                return
            job.outcome = _call(job.executor, job.timeout_seconds)
            if job.given_up():
                job.done.release()
                return  # this thread was written off when its caller gave up
            with self._lock:
                self._idle += 1
            # Release last, so that the caller wakes while this thread goes back to waiting.
            job.done.release()


def run_inline(executor: ToolExecutor, timeout_seconds: float) -> Result[str, BackendFailure]:
    """Run a backend that enforces its own time limit in the calling thread."""
    if timeout_seconds <= 0:
        return Failure(BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))
    return _call(executor, timeout_seconds)


def _call(executor: ToolExecutor, timeout_seconds: float) -> Result[str, BackendFailure]:
    try:
        outcome: object = executor(timeout_seconds)
    except Exception:  # a backend is foreign code: no exception text crosses the boundary
        return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "BACKEND_RAISED"))
    if not isinstance(outcome, Success | Failure):
        return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "NOT_A_RESULT"))
    if isinstance(outcome, Success) and not isinstance(outcome.unwrap(), str):
        return Failure(BackendFailure(BackendFailureKind.BACKEND_ERROR, "NOT_TEXT"))
    return outcome
