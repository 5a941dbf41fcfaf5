"""A bounded pool of threads that run the synchronous facade for event loops.

The facade's work is short and mostly CPU (deciding, encoding, hashing) with blocking I/O in
between (the store, the vault, a backend). An event loop must never wait on that I/O, so every
operation of ``AsyncHarness`` runs here: the loop hands a call to an idle thread through a
queue and awaits a future the thread resolves with ``call_soon_threadsafe`` — the cheapest
hand-off the standard library offers (a few microseconds; ``run_in_executor`` costs several
times more, see ADR 0021 and ``bench/facade_async.py``). At most ``workers`` threads run at
once; further calls wait in the queue, their loops free meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from attrs import define

from factledger.application.daemon_threads import DaemonThreads

__all__ = ["WorkerPool"]

T = TypeVar("T")


@define
class _Job(Generic[T]):
    call: Callable[[], T]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[T]


def _resolve(future: asyncio.Future[T], value: T) -> None:
    if not future.done():
        future.set_result(value)


def _fail(future: asyncio.Future[T], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


class WorkerPool(DaemonThreads[_Job[object]]):
    """At most ``workers`` daemon threads, started as calls need them."""

    def __init__(self, workers: int = 8, *, name: str = "factledger-async") -> None:
        if workers < 1:
            raise ValueError("a worker pool needs at least one worker")
        super().__init__()
        self._limit = workers
        self._idle = 0
        self._queued = 0
        self._name = name

    @property
    def workers(self) -> int:
        """The most threads that run at once."""
        return self._limit

    async def run(self, call: Callable[[], T]) -> T:
        """``call()`` on a pool thread; its result or its exception, on the caller's loop."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._start_if_needed()
        self._jobs.put(_Job(call, loop, future))  # type: ignore[arg-type]  # one queue, any T
        return await future

    def _start_if_needed(self) -> None:
        """Count the call in; start a thread when every idle one already has a call waiting."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the worker pool is shut down")
            self._queued += 1
            if self._queued <= self._idle or self._threads >= self._limit:
                return
            self._threads += 1
            self._idle += 1
        threading.Thread(target=self._work, name=self._name, daemon=True).start()

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            with self._lock:
                self._idle -= 1
                self._queued -= 1
            try:
                value = job.call()
            except BaseException as failed:  # handed to the awaiting task, never lost here
                self._deliver(job, _fail, failed)
            else:
                self._deliver(job, _resolve, value)
            with self._lock:
                self._idle += 1

    @staticmethod
    def _deliver(
        job: _Job[object], how: Callable[[asyncio.Future[object], T], None], value: T
    ) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed first: nobody waits
            job.loop.call_soon_threadsafe(how, job.future, value)
