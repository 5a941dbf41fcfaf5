"""Redis specifics: vault TTLs by PTTL, bodies never in any stream, and a Redis that stops."""

from __future__ import annotations

import threading
import time

import pytest
import redis
from returns.result import Result, Success

from factledger.adapters.redis.keys import RedisKeys
from factledger.application.canonical_view import CanonicalInvocation, ContentState
from factledger.application.run_repository import StoreFailed
from factledger.application.run_service import StartedRun
from factledger.application.tool_call import (
    BoundaryFailed,
    BoundaryReady,
    RunContext,
    ToolCallRequestEnvelope,
)
from factledger.domain.budget import RunBudget
from factledger.domain.invocation import Ready
from factledger.domain.run_events import ToolGrant
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, ProjectedToolResult, ProjectionFailure
from factledger.ports.payload_vault import PayloadKey, PayloadPart
from tests.support.redis_server import RedisProcess
from tests.support.workers import redis_runtime

pytestmark = pytest.mark.integration

GRANTS = (ToolGrant("lookup_knowledge", True),)
SECRET_REQUEST = "REQ-SECRET-a81f"
SECRET_RAW = "RAW-SECRET-77c2"
SECRET_RESULT = "RESULT-SECRET-93d0"


def _project(raw: str) -> Result[ProjectedToolResult, ProjectionFailure]:
    return Success(
        ProjectedToolResult({"content": raw + SECRET_RESULT}, EvidenceStatus.EVIDENCE_FOUND)
    )


def _backend(_: float) -> Result[str, BackendFailure]:
    return Success(f'{{"line": "{SECRET_RAW}"}}')


def _envelope(run_id: str, tool_call_id: str) -> ToolCallRequestEnvelope:
    arguments = f'{{"query": "{SECRET_REQUEST}"}}'
    return ToolCallRequestEnvelope(run_id, tool_call_id, "lookup_knowledge", arguments, True, True)


def test_vault_ttl_is_not_renewed_by_reads_and_kept_by_updates(
    redis_url: str, key_prefix: str
) -> None:
    runtime = redis_runtime(redis_url, key_prefix)
    started = runtime.run_service.start(budget=RunBudget(), tools=GRANTS)
    assert isinstance(started, StartedRun)
    run_id = started.run_id
    client = redis.Redis.from_url(redis_url)
    keys = RedisKeys(key_prefix, 4)
    request_key = keys.payload(PayloadKey(run_id, "call-1", PayloadPart.REQUEST))

    seen_mid_call: list[int] = []

    def slow_backend(_: float) -> Result[str, BackendFailure]:
        seen_mid_call.append(int(client.pttl(request_key)))
        time.sleep(0.3)
        return Success('{"ok": true}')

    result = runtime.boundary.invoke(
        RunContext(run_id), _envelope(run_id, "call-1"), slow_backend, _project
    )
    assert isinstance(result, BoundaryReady)
    ttls = {
        part: int(client.pttl(keys.payload(PayloadKey(run_id, "call-1", part))))
        for part in (PayloadPart.REQUEST, PayloadPart.RAW, PayloadPart.RESULT)
    }
    # The raw and result bodies, written 0.3 s later, expire with the request body: no later.
    assert abs(ttls[PayloadPart.RAW] - ttls[PayloadPart.REQUEST]) < 50
    assert abs(ttls[PayloadPart.RESULT] - ttls[PayloadPart.REQUEST]) < 50
    assert ttls[PayloadPart.REQUEST] <= seen_mid_call[0] - 250
    before = int(client.pttl(request_key))
    for _ in range(5):
        record = runtime.canonical.read(run_id, "call-1")
        assert isinstance(record, CanonicalInvocation)
        assert record.content is ContentState.AVAILABLE
        time.sleep(0.05)
    after = int(client.pttl(request_key))
    assert after <= before - 200, "reading renewed the TTL"
    assert ttls[PayloadPart.REQUEST] <= 7200 * 1000
    runtime.close()


def test_no_request_raw_or_result_body_ever_appears_in_any_stream(
    redis_url: str, key_prefix: str
) -> None:
    runtime = redis_runtime(redis_url, key_prefix)
    started = runtime.run_service.start(budget=RunBudget(), tools=GRANTS)
    assert isinstance(started, StartedRun)
    for index in range(5):
        runtime.boundary.invoke(
            RunContext(started.run_id), _envelope(started.run_id, f"c{index}"), _backend, _project
        )
    client = redis.Redis.from_url(redis_url)
    scanned = 0
    for name in client.scan_iter(match=f"{key_prefix}:*"):
        if client.type(name) != b"stream":
            continue
        for _, fields in client.xrange(name) or []:
            for value in (fields or {}).values():
                scanned += 1
                for secret in (SECRET_REQUEST, SECRET_RAW, SECRET_RESULT):
                    assert secret.encode() not in value, (name, secret)
    assert scanned > 40
    runtime.close()


def test_a_redis_stopped_mid_run_gives_store_error_never_ready_nor_exception_text(
    redis_server: RedisProcess, key_prefix: str
) -> None:
    runtime = redis_runtime(redis_server.url, key_prefix)
    started = runtime.run_service.start(budget=RunBudget(), tools=GRANTS)
    assert isinstance(started, StartedRun)
    run_id = started.run_id
    assert isinstance(
        runtime.boundary.invoke(
            RunContext(run_id), _envelope(run_id, "before"), _backend, _project
        ),
        BoundaryReady,
    )

    def backend_while_redis_dies(_: float) -> Result[str, BackendFailure]:
        redis_server.stop(hard=True)
        return Success('{"line": "after"}')

    during = runtime.boundary.invoke(
        RunContext(run_id), _envelope(run_id, "during"), backend_while_redis_dies, _project
    )
    assert isinstance(during, BoundaryFailed)
    assert during.code.value == "STORE_ERROR"
    assert during.reason == "STORE_UNAVAILABLE"  # an outage, not corruption or divergence
    after = runtime.boundary.invoke(
        RunContext(run_id), _envelope(run_id, "after"), _backend, _project
    )
    assert isinstance(after, BoundaryFailed)
    assert (after.code.value, after.reason) == ("STORE_ERROR", "STORE_UNAVAILABLE")
    assert isinstance(runtime.canonical.read(run_id, "before"), StoreFailed)

    redis_server.start()  # nothing on disk: the store comes back empty
    fresh = redis_runtime(redis_server.url, key_prefix)
    log = fresh.runs.load(run_id)
    assert not isinstance(log, StoreFailed)
    assert not isinstance(log.invocation("during"), Ready)
    fresh.close()
    runtime.close()


def test_a_redis_with_an_append_only_file_keeps_every_acknowledged_event(
    key_prefix: str,
) -> None:
    from tests.support.redis_server import redis_binary

    binary = redis_binary()
    assert binary is not None, "redis-server is needed"
    server = RedisProcess(binary, appendonly=True, appendfsync="always")
    server.start()
    try:
        runtime = redis_runtime(server.url, key_prefix)
        started = runtime.run_service.start(budget=RunBudget(), tools=GRANTS)
        assert isinstance(started, StartedRun)
        for index in range(5):
            result = runtime.boundary.invoke(
                RunContext(started.run_id),
                _envelope(started.run_id, f"c{index}"),
                _backend,
                _project,
            )
            assert isinstance(result, BoundaryReady)
        head = runtime.store.read_head(started.run_id)
        runtime.close()
        server.stop(hard=True)
        server.start()
        again = redis_runtime(server.url, key_prefix)
        assert again.store.read_head(started.run_id) == head
        log = again.runs.load(started.run_id)
        assert not isinstance(log, StoreFailed)
        assert sum(isinstance(i, Ready) for i in log.invocations.values()) == 5
        again.close()
    finally:
        server.cleanup()


def test_concurrent_threads_in_one_process_share_the_budget_safely(
    redis_url: str, key_prefix: str
) -> None:
    runtime = redis_runtime(redis_url, key_prefix)
    started = runtime.run_service.start(budget=RunBudget(tool_calls=7), tools=GRANTS)
    assert isinstance(started, StartedRun)
    codes: list[str] = []
    lock = threading.Lock()

    def worker(index: int) -> None:
        for call in range(4):
            result = runtime.boundary.invoke(
                RunContext(started.run_id),
                _envelope(started.run_id, f"t{index}-{call}"),
                _backend,
                _project,
            )
            with lock:
                codes.append("READY" if isinstance(result, BoundaryReady) else result.code.value)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert codes.count("READY") == 7
    assert codes.count("BUDGET_EXHAUSTED") == 9
    runtime.close()
