"""``AsyncHarness``: the facade for event loops, every operation of ``Harness`` awaitable.

Each operation runs the synchronous facade on a bounded pool of threads (``WorkerPool``) and
awaits it, so the loop never waits on the store, the vault or a backend: other tasks run
meanwhile, and a slow backend delays only its own call. A tool call that waits on nothing (an
in-process store and a tool whose backend computes from memory, ``Harness.call_blocks``) runs
on the loop itself: a hand-off to a thread and back would cost more than the call (ADR 0035).
The rules are the synchronous facade's, not a copy of them (one path through the interceptor,
the boundary and the release). A host's own ``passthrough`` handler may be a coroutine
function: it is awaited on the caller's loop. Results, errors and codes are the same typed
values as ``Harness``'s.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial, wraps
from typing import Any, Concatenate, ParamSpec, TypeVar, cast, overload

from factledger.application.harness import Harness
from factledger.application.observation import Observation
from factledger.application.worker_pool import WorkerPool
from factledger.domain.run_events import ToolGrant
from factledger.ports.telemetry import Telemetry

__all__ = ["AsyncHarness"]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


def _pooled(
    operation: Callable[Concatenate[Harness, P], T],
) -> Callable[Concatenate[AsyncHarness, P], Coroutine[Any, Any, T]]:
    """``operation`` of the synchronous facade as a coroutine of the async one, with its
    parameters, types and docstring: it runs on the async facade's pool of threads."""

    @wraps(operation)
    async def pooled(facade: AsyncHarness, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await facade._run(partial(operation, facade._harness, *args, **kwargs))

    return pooled


class AsyncHarness:
    """The facade for event loops; see the module docstring."""

    def __init__(self, harness: Harness, *, workers: int = 8) -> None:
        self._harness = harness
        self._pool = WorkerPool(workers)

    @classmethod
    def embedded(cls, *, workers: int = 8) -> AsyncHarness:
        """An async harness on the settings the lookup order finds (see ``Harness.embedded``)."""
        return cls(Harness.embedded(), workers=workers)

    @property
    def sync(self) -> Harness:
        """The synchronous facade underneath (the same runs, stores and tools)."""
        return self._harness

    async def _run(self, call: Callable[[], T]) -> T:
        return await self._pool.run(call)

    async def aclose(self) -> None:
        """Release connections and threads."""
        await self._run(self._harness.close)
        self._pool.shutdown()

    async def __aenter__(self) -> AsyncHarness:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    # -- the operations handed to the pool, with Harness's parameters and docstrings -------

    start_run = _pooled(Harness.start_run)
    cancel = _pooled(Harness.cancel)
    enforce_deadline = _pooled(Harness.enforce_deadline)
    record_model_failure = _pooled(Harness.record_model_failure)
    record_model_usage = _pooled(Harness.record_model_usage)
    tool_definitions = _pooled(Harness.tool_definitions)
    release = _pooled(Harness.release)
    released = _pooled(Harness.released)
    check = _pooled(Harness.check)
    list_runs = _pooled(Harness.list_runs)
    require_access = _pooled(Harness.require_access)
    inspect_run = _pooled(Harness.inspect_run)
    run_summary = _pooled(Harness.run_summary)
    canonical_view = _pooled(Harness.canonical_view)
    control_view = _pooled(Harness.control_view)
    progress_snapshot = _pooled(Harness.progress_snapshot)
    statuses = _pooled(Harness.statuses)
    timeline = _pooled(Harness.timeline)
    health = _pooled(Harness.health)
    release_steps = _pooled(Harness.release_steps)
    verify = _pooled(Harness.verify)
    audit = _pooled(Harness.audit)
    rebuild = _pooled(Harness.rebuild)

    async def add_telemetry(self, sink: Telemetry) -> Callable[[], None]:
        """Report this facade's measurements to ``sink``; returns what stops it (held in
        memory: nothing is handed to the pool)."""
        return self._harness.add_telemetry(sink)

    # -- tools ----------------------------------------------------------------------------

    @property
    def tool_names(self) -> tuple[str, ...]:
        """The registered evidence tools' names (held in memory: nothing to await)."""
        return self._harness.tool_names

    @property
    def grants(self) -> tuple[ToolGrant, ...]:
        """Every registered tool as granted to a new run."""
        return self._harness.grants

    def call_blocks(self, tool_name: str) -> bool:
        """See ``Harness.call_blocks`` (held in memory: nothing to await)."""
        return self._harness.call_blocks(tool_name)

    @overload
    async def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: None = None,
    ) -> Observation: ...

    @overload
    async def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: Callable[[str, str], Awaitable[R]],
    ) -> Observation | R: ...

    @overload
    async def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: Callable[[str, str], R],
    ) -> Observation | R: ...

    async def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: Callable[[str, str], object] | None = None,
    ) -> object:
        """One tool call: the model observation, or what the host's ``passthrough`` handler
        gave for a tool that is not an evidence tool (awaited when it is awaitable)."""
        if passthrough is None:
            return await self.observe(run_id, tool_call_id, tool_name, arguments_json, step=step)
        if not self._harness.call_blocks(tool_name):  # an evidence tool: never passed through
            return self._harness.observe(run_id, tool_call_id, tool_name, arguments_json, step=step)
        handled: object = await self._run(
            partial(
                self._harness.call_tool,
                run_id,
                tool_call_id,
                tool_name,
                arguments_json,
                step=step,
                passthrough=passthrough,
            )
        )
        if not isinstance(handled, Observation) and inspect.isawaitable(handled):
            return await cast("Awaitable[object]", handled)
        return handled

    async def observe(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
    ) -> Observation:
        """Like ``call_tool`` without a passthrough: always the observation."""
        if not self._harness.call_blocks(tool_name):
            return self._harness.observe(run_id, tool_call_id, tool_name, arguments_json, step=step)
        return await self._run(
            partial(
                self._harness.observe, run_id, tool_call_id, tool_name, arguments_json, step=step
            )
        )
