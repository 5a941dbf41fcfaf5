"""Functions run in separate worker processes by the integration tests.

Each builds its own runtime through the production composition root from plain settings, as a
real worker process would, and returns only plain values.
"""

from __future__ import annotations

import threading

from returns.result import Result, Success

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.application.tool_call import (
    BoundaryFailed,
    BoundaryReady,
    BoundaryRefused,
    RunContext,
    ToolBoundaryResult,
    ToolCallRequestEnvelope,
)
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, ProjectedToolResult, ProjectionFailure


def redis_runtime(url: str, prefix: str, partitions: int = 4) -> Runtime:
    """A runtime on Redis, wired exactly as production wires it."""
    settings = Settings(
        store=StoreSettings(kind="redis", url=url, key_prefix=prefix, partitions=partitions)
    )
    return build_runtime(settings)


def outcome_code(result: ToolBoundaryResult) -> str:
    """``READY`` or the error code, as plain text."""
    if isinstance(result, BoundaryReady):
        return "READY"
    if isinstance(result, BoundaryRefused | BoundaryFailed):
        return result.code.value
    raise AssertionError(result)


def echo_backend(_: float) -> Result[str, BackendFailure]:
    return Success('{"evidence": ["x"]}')


def keep_projector(raw: str) -> Result[ProjectedToolResult, ProjectionFailure]:
    return Success(ProjectedToolResult({"content": raw}, EvidenceStatus.EVIDENCE_FOUND))


def call_once(runtime: Runtime, run_id: str, tool_call_id: str) -> str:
    envelope = ToolCallRequestEnvelope(
        run_id, tool_call_id, "lookup_knowledge", '{"query": "q"}', True, True
    )
    return outcome_code(
        runtime.boundary.invoke(RunContext(run_id), envelope, echo_backend, keep_projector)
    )


def call_many(
    url: str, prefix: str, run_id: str, tool_call_ids: list[str], barrier: threading.Barrier
) -> list[str]:
    """Call each id in order as fast as possible, after every worker is ready."""
    runtime = redis_runtime(url, prefix)
    try:
        barrier.wait(timeout=60)
        return [call_once(runtime, run_id, tool_call_id) for tool_call_id in tool_call_ids]
    finally:
        runtime.close()


def call_and_wait(
    url: str, prefix: str, run_id: str, started: threading.Event, release: threading.Event
) -> str:
    """Begin a call whose backend waits until ``release``: another worker acts meanwhile."""
    runtime = redis_runtime(url, prefix)

    def waiting_backend(_: float) -> Result[str, BackendFailure]:
        started.set()
        release.wait(timeout=30)
        return Success('{"evidence": ["late"]}')

    envelope = ToolCallRequestEnvelope(
        run_id, "slow-call", "lookup_knowledge", '{"query": "q"}', True, True
    )
    try:
        result = runtime.boundary.invoke(
            RunContext(run_id), envelope, waiting_backend, keep_projector
        )
        return outcome_code(result)
    finally:
        runtime.close()


def cancel_run(url: str, prefix: str, run_id: str) -> str:
    """Cancel a run from this worker."""
    runtime = redis_runtime(url, prefix)
    try:
        return type(runtime.run_service.cancel(run_id)).__name__
    finally:
        runtime.close()


def begin_and_hang(url: str, prefix: str, run_id: str, started: threading.Event) -> None:
    """Begin a call whose backend never returns (the process is killed while it hangs)."""
    import time

    runtime = redis_runtime(url, prefix)

    def hanging_backend(_: float) -> Result[str, BackendFailure]:
        started.set()
        time.sleep(3600)
        return Success("{}")

    envelope = ToolCallRequestEnvelope(
        run_id, "orphan", "lookup_knowledge", '{"query": "q"}', True, True
    )
    runtime.boundary.invoke(RunContext(run_id), envelope, hanging_backend, keep_projector)
