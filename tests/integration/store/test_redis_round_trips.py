"""A tool call on Redis costs at most three request round trips (docs/adr/0003).

Round trips are counted where redis-py writes a request to its socket: a pipeline or a script
call is one request, however many commands it carries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import redis.connection
from returns.result import Result, Success

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.application.run_service import StartedRun
from factledger.application.tool_call import BoundaryReady, RunContext, ToolCallRequestEnvelope
from factledger.domain.budget import RunBudget
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, ProjectedToolResult, ProjectionFailure

pytestmark = pytest.mark.integration

CALLS = 20


def _backend(_: float) -> Result[str, BackendFailure]:
    return Success("{}")


def _projector(_: str) -> Result[ProjectedToolResult, ProjectionFailure]:
    return Success(ProjectedToolResult({}, EvidenceStatus.NO_EVIDENCE))


class _Requests:
    """Counts the requests written to any Redis socket while installed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original: Callable[..., None] = redis.connection.AbstractConnection.send_packed_command

        def counting(conn: object, command: object, check_health: bool = True) -> None:
            self.count += 1
            original(conn, command, check_health)

        monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counting)


@pytest.fixture
def runtime(redis_url: str, key_prefix: str) -> Iterator[Runtime]:
    built = build_runtime(
        Settings(store=StoreSettings(kind="redis", url=redis_url, key_prefix=key_prefix))
    )
    yield built
    built.close()


def _started_run(runtime: Runtime) -> str:
    started = runtime.run_service.start(
        budget=RunBudget(), tools=(ToolGrant("noop", True),), context=DiagnosisContext("rt")
    )
    assert isinstance(started, StartedRun)
    runtime.runs.load(started.run_id)
    return started.run_id


def _call(runtime: Runtime, run_id: str, call_id: str) -> None:
    envelope = ToolCallRequestEnvelope(run_id, call_id, "noop", "{}", True, True)
    result = runtime.boundary.invoke(
        RunContext(run_id), envelope, _backend, _projector, isolated=False
    )
    assert isinstance(result, BoundaryReady), result


def test_a_tool_call_costs_at_most_three_round_trips(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_id = _started_run(runtime)
    _call(runtime, run_id, "warm-up")
    requests = _Requests(monkeypatch)
    for index in range(CALLS):
        _call(runtime, run_id, f"c{index}")
    per_call = requests.count / CALLS
    assert requests.count > 0, "the counter saw no request: the store did not reach Redis"
    assert per_call <= 3, f"{per_call:.2f} round trips per call"


def test_each_call_is_counted_on_its_own(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound holds for every call, not only on average over a batch."""
    run_id = _started_run(runtime)
    _call(runtime, run_id, "warm-up")
    requests = _Requests(monkeypatch)
    counts: list[int] = []
    for index in range(10):
        before = requests.count
        _call(runtime, run_id, f"single{index}")
        counts.append(requests.count - before)
    assert max(counts) <= 3, counts
    assert min(counts) >= 1, counts
