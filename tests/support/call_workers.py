"""Worker processes for the cross-process retry and abandonment tests.

Each builds its own runtime through the production composition root from plain values, with a
knowledge backend of its own that counts its searches, and returns only plain values.
"""

from __future__ import annotations

import time
from typing import Protocol

from attrs import frozen
from returns.result import Result

from factledger.adapters.config.settings import Settings
from factledger.domain.json_types import JsonObject
from factledger.domain.tool_result import BackendFailure
from tests.support.calls import CountingBackend, call_settings, call_world, store_settings


class _Event(Protocol):
    def set(self) -> None: ...

    def wait(self, timeout: float | None = None) -> bool: ...


class _Barrier(Protocol):
    def wait(self, timeout: float | None = None) -> int: ...


@frozen
class WorkerStore:
    """Where the workers' store is, as plain values."""

    kind: str
    path: str = ""
    url: str = ""
    prefix: str = "fl"
    call_timeout_seconds: float = 30.0
    abandon_grace_seconds: float = 30.0
    retry_wait_seconds: float = 30.0

    def settings(self) -> Settings:
        """The settings every process of a test uses."""
        return call_settings(
            store_settings(self.kind, path=self.path, redis_url=self.url, prefix=self.prefix),
            call_timeout_seconds=self.call_timeout_seconds,
            abandon_grace_seconds=self.abandon_grace_seconds,
            retry_wait_seconds=self.retry_wait_seconds,
        )


class _WaitingBackend(CountingBackend):
    """Signals ``started`` when a search begins, then waits for ``release`` (another process)."""

    def __init__(self, started: _Event, release: _Event | None) -> None:
        super().__init__()
        self._started = started
        self._release = release

    def search(self, query: str, limit: int, timeout_seconds: float) -> Result[str, BackendFailure]:
        self._started.set()
        if self._release is None:
            time.sleep(3600)  # hangs until the process is killed
        else:
            self._release.wait(timeout=60)
        return super().search(query, limit, timeout_seconds)


def call_after(
    where: WorkerStore, run_id: str, tool_call_id: str, arguments: str, barrier: _Barrier
) -> tuple[JsonObject, int]:
    """Make one call once every worker is ready; its observation and this worker's searches."""
    with call_world(where.settings(), run_id=run_id) as world:
        barrier.wait(timeout=60)
        observation = world.call(tool_call_id, arguments)
        return observation, world.backend.searches


def call_held(
    where: WorkerStore,
    run_id: str,
    tool_call_id: str,
    arguments: str,
    started: _Event,
    release: _Event | None,
) -> JsonObject:
    """Make one call whose backend waits for ``release`` (or hangs, with None)."""
    backend = _WaitingBackend(started, release)
    with call_world(where.settings(), run_id=run_id, backend=backend) as world:
        return world.call(tool_call_id, arguments)
