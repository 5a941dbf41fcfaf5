"""A store that loses acknowledged events (a failover to a lagging replica, ADR 0009): the
worker that had read them notices, fails the command decided on them, and from then on works
on the store's history; a call that was lost cannot be cited."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from attrs import define

from factledger.adapters.bootstrap import Runtime, build_runtime
from factledger.adapters.memory.clock import ManualClock, SequentialIdFactory
from factledger.application.interceptor import Observed
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.application.run_service import StartedRun
from factledger.domain.invocation import Ready
from factledger.domain.json_types import JsonObject
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.run_events import DiagnosisContext
from factledger.domain.run_log import RunLog
from factledger.domain.status import ReleaseOutcome
from factledger.ports.event_store import EventStore
from tests.support.interceptor import knowledge_args, settings_for
from tests.support.replicated_store import ReplicatedEventStore

QUERY = "GW-504 pool exhausted"
CLAIM = "card-gateway fails with GW-504 because the acquirer connection pool is exhausted."
CONCLUSION = "The acquirer connection pool of card-gateway is exhausted, causing GW-504."


@define
class Cluster:
    runtime: Runtime
    store: ReplicatedEventStore
    run_id: str

    def call(self, tool_call_id: str, previous: str | None = None) -> JsonObject:
        handled = self.runtime.interceptor.handle(
            self.run_id,
            tool_call_id,
            "lookup_knowledge",
            knowledge_args(QUERY if previous is None else f"{QUERY} {tool_call_id}",
                           None if previous is None else (previous, "GAINED")),
        )  # fmt: skip
        assert isinstance(handled, Observed)
        return handled.observation

    def stored_log(self) -> RunLog:
        """The run as a worker that never cached it reads it from the store."""
        fresh = RunRepository(
            self.store, self.runtime.runs.codec, self.runtime.clock, SequentialIdFactory("f")
        )
        loaded = fresh.load(self.run_id)
        assert isinstance(loaded, RunLog)
        return loaded


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    clock = ManualClock(datetime(2026, 3, 1, 10, 5, tzinfo=UTC))
    holder: list[ReplicatedEventStore] = []

    def wrap(store: EventStore) -> EventStore:
        holder.append(ReplicatedEventStore(store, clock))
        return holder[0]

    runtime = build_runtime(settings_for("memory"), clock=clock, wrap_store=wrap)
    started = runtime.run_service.start(
        budget=runtime.budget,
        tools=runtime.registry.grants,
        context=DiagnosisContext(
            "card-gateway",
            datetime(2026, 3, 1, 10, 0, tzinfo=UTC),
            datetime(2026, 3, 1, 11, 0, tzinfo=UTC),
        ),
        progress=runtime.progress_policy,
    )
    assert isinstance(started, StartedRun)
    try:
        yield Cluster(runtime, holder[0], started.run_id)
    finally:
        runtime.close()


def _lose_c2(cluster: Cluster) -> None:
    """c1 reaches the replica; c2 is acknowledged by the primary only; then the replica takes
    over."""
    assert cluster.call("c1")["status"] == "READY"
    cluster.store.stop_replication()
    assert cluster.call("c2", previous="c1")["status"] == "READY"
    cluster.store.fail_over()


def test_the_first_command_after_the_loss_fails_and_the_next_works_on_the_store(
    cluster: Cluster,
) -> None:
    _lose_c2(cluster)
    # This worker's cached log still holds c2: the call decided on it is void.
    failed = cluster.call("c3", previous="c2")
    assert (failed["status"], failed["error_code"]) == ("ERROR", "STORE_ERROR")
    # The cache was dropped: the run is read again, as the store has it (c1, no c2).
    log = cluster.runtime.runs.load(cluster.run_id)
    assert isinstance(log, RunLog)
    assert isinstance(log.invocation("c1"), Ready)
    assert log.invocation("c2") is None
    assert log.sequence == cluster.stored_log().sequence
    assert cluster.call("c4", previous="c1")["status"] == "READY"


def test_events_written_by_another_worker_after_the_loss_are_never_folded_onto_the_lost_ones(
    cluster: Cluster,
) -> None:
    _lose_c2(cluster)
    # Another worker, on the same (failed-over) store, continues the run past this worker's
    # cached head.
    other = build_runtime(
        settings_for("memory"), clock=cluster.runtime.clock, wrap_store=lambda _: cluster.store
    )
    for index, previous in ((5, "c1"), (6, "c5"), (7, "c6")):
        handled = other.interceptor.handle(
            cluster.run_id,
            f"c{index}",
            "lookup_knowledge",
            knowledge_args(f"{QUERY} {index}", (previous, "GAINED")),
        )
        assert isinstance(handled, Observed)
        assert handled.observation["status"] == "READY", handled.observation
    other.close()
    stored = cluster.stored_log()
    cached = cluster.runtime.runs.load(cluster.run_id, refresh=False)
    assert isinstance(cached, RunLog)
    assert stored.sequence > cached.sequence  # the store is past the stale cache
    # Refreshing notices that the new events do not chain onto the cached head.
    refreshed = cluster.runtime.runs.load(cluster.run_id)
    assert isinstance(refreshed, RunLog)
    assert (refreshed.sequence, refreshed.head_hash) == (stored.sequence, stored.head_hash)
    assert refreshed.invocation("c2") is None
    assert set(refreshed.invocations) == set(stored.invocations) == {"c1", "c5", "c6", "c7"}


def test_a_command_decided_on_a_history_the_store_no_longer_has_is_diverged(
    cluster: Cluster,
) -> None:
    _lose_c2(cluster)
    assert cluster.runtime.run_service.cancel(cluster.run_id) == StoreFailed("DIVERGED")
    # The next command is decided on the store's history, and goes through.
    cancelled = cluster.runtime.run_service.cancel(cluster.run_id)
    assert not isinstance(cancelled, StoreFailed)
    log = cluster.runtime.runs.load(cluster.run_id)
    assert isinstance(log, RunLog)
    assert log.invocation("c2") is None
    assert log.run is not None
    assert log.run.state.value == "CANCELLED"


def test_a_draft_citing_a_lost_call_is_never_published(cluster: Cluster) -> None:
    _lose_c2(cluster)
    cluster.call("c3", previous="c2")  # fails: the worker learns of the loss
    draft = {
        "conclusion": CONCLUSION,
        "analyses": [{"kind": "SUPPORTING_EVIDENCE", "claim": CLAIM, "tool_call_ids": ["c2"]}],
    }
    released = cluster.runtime.releases.release(cluster.run_id, json.dumps(draft))
    assert isinstance(released, ReleaseResult)
    assert released.outcome is not ReleaseOutcome.SUCCESS
    assert released.published_result is None
    assert released.fallback is not None
    assert "c2" in {issue.tool_call_id for issue in released.fallback.validation_issues}
