"""One contract suite for the EventStore port, with the bodies an append writes into the vault
(the vault's own behaviour, purge included, is ``vault_contract.py``).

Each adapter subclasses ``StoreContract`` in a few lines, providing ``make_store`` (an event
store and its vault sharing one namespace), ``clock`` and ``wait``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from returns.result import Success

from factledger.domain.append_guards import CounterGuard, MetaField
from factledger.domain.budget import BudgetName
from factledger.domain.chain import GENESIS, ChainHead, StoredEvent
from factledger.domain.codec import chain_hash
from factledger.domain.events import GENESIS_HASH
from factledger.ports.append_waiter import AppendWaiter
from factledger.ports.clock import Clock
from factledger.ports.event_store import (
    Appended,
    AppendRequest,
    CounterLimitExceeded,
    DuplicateKey,
    EventStore,
    SequenceConflict,
)
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadVault, PayloadWrite

StoreFactory = Callable[[], tuple[EventStore, PayloadVault]]


def events_after(run_id: str, head: ChainHead, count: int) -> tuple[StoredEvent, ...]:
    """``count`` chained events after ``head`` (opaque bytes: stores never parse them)."""
    out: list[StoredEvent] = []
    prev = head.hash
    for offset in range(1, count + 1):
        sequence = head.sequence + offset
        data = f'{{"run_id":"{run_id}","sequence":{sequence}}}'.encode()
        digest = chain_hash(prev, data)
        out.append(StoredEvent(run_id, sequence, data, digest))
        prev = digest
    return tuple(out)


def request_after(
    run_id: str, head: ChainHead, count: int = 1, command_id: str = "cmd", **extra: object
) -> AppendRequest:
    """An append of ``count`` events after ``head``."""
    return AppendRequest(
        run_id=run_id,
        expected=head,
        command_id=command_id,
        events=events_after(run_id, head, count),
        **extra,  # type: ignore[arg-type]  # the optional AppendRequest fields
    )


class StoreContract:
    """Every adapter of the store ports must pass these."""

    @pytest.fixture
    def clock(self) -> Clock:
        raise NotImplementedError

    @pytest.fixture
    def make_store(self) -> StoreFactory:
        raise NotImplementedError

    @pytest.fixture
    def wait(self) -> Callable[[float], None]:
        raise NotImplementedError

    @pytest.fixture
    def store(self, make_store: StoreFactory) -> EventStore:
        return make_store()[0]

    @pytest.fixture
    def vault(self, make_store: StoreFactory) -> PayloadVault:
        return make_store()[1]

    # -- appends -------------------------------------------------------------------------

    def test_a_first_append_creates_the_run_and_its_head(self, store: EventStore) -> None:
        outcome = store.append(request_after("run-a", GENESIS, 3))
        assert isinstance(outcome, Appended)
        assert outcome.head.sequence == 3
        assert not outcome.already_committed
        read = store.read_run("run-a")
        assert isinstance(read, Success)
        assert [event.sequence for event in read.unwrap()] == [1, 2, 3]
        assert store.read_head("run-a") == Success(outcome.head)

    def test_an_unknown_run_reads_as_empty_with_no_head(self, store: EventStore) -> None:
        assert store.read_run("nobody") == Success(())
        assert store.read_head("nobody") == Success(None)

    def test_reading_after_a_sequence_returns_only_later_events(self, store: EventStore) -> None:
        store.append(request_after("run-a", GENESIS, 5))
        read = store.read_run("run-a", after_sequence=3)
        assert isinstance(read, Success)
        assert [event.sequence for event in read.unwrap()] == [4, 5]

    def test_an_append_on_a_stale_head_conflicts_and_writes_nothing(
        self, store: EventStore
    ) -> None:
        first = store.append(request_after("run-a", GENESIS, 2, "one"))
        assert isinstance(first, Appended)
        stale = store.append(request_after("run-a", GENESIS, 1, "two"))
        assert stale == SequenceConflict(first.head)
        wrong_hash = store.append(request_after("run-a", ChainHead(2, GENESIS_HASH), 1, "three"))
        assert wrong_hash == SequenceConflict(first.head)
        read = store.read_run("run-a")
        assert isinstance(read, Success)
        assert len(read.unwrap()) == 2

    def test_retrying_a_committed_command_learns_it_was_committed(self, store: EventStore) -> None:
        request = request_after("run-a", GENESIS, 2, "same")
        first = store.append(request)
        again = store.append(request)
        assert isinstance(first, Appended)
        assert again == Appended(first.head, already_committed=True)
        read = store.read_run("run-a")
        assert isinstance(read, Success)
        assert len(read.unwrap()) == 2

    def test_a_taken_unique_key_refuses_the_whole_append(self, store: EventStore) -> None:
        first = store.append(request_after("run-a", GENESIS, 1, "one", unique_keys=("k:1",)))
        assert isinstance(first, Appended)
        second = store.append(
            request_after(
                "run-a",
                first.head,
                1,
                "two",
                unique_keys=("k:2", "k:1"),
                counters=(CounterGuard(BudgetName.TOOL_CALLS, 1, 10),),
            )
        )
        assert second == DuplicateKey("k:1")
        third = store.append(request_after("run-a", first.head, 1, "three", unique_keys=("k:2",)))
        assert isinstance(third, Appended), "k:2 must not have been taken by the refused append"

    def test_a_unique_key_belongs_to_one_run_only(self, store: EventStore) -> None:
        assert isinstance(
            store.append(request_after("run-a", GENESIS, 1, "a", unique_keys=("k:1",))), Appended
        )
        assert isinstance(
            store.append(request_after("run-b", GENESIS, 1, "b", unique_keys=("k:1",))), Appended
        )

    def test_a_counter_past_its_limit_refuses_the_whole_append(self, store: EventStore) -> None:
        guard = (CounterGuard(BudgetName.TOOL_CALLS, 2, 3),)
        first = store.append(request_after("run-a", GENESIS, 1, "one", counters=guard))
        assert isinstance(first, Appended)
        second = store.append(
            request_after("run-a", first.head, 1, "two", counters=guard, unique_keys=("k",))
        )
        assert second == CounterLimitExceeded(BudgetName.TOOL_CALLS)
        assert isinstance(second, CounterLimitExceeded)
        assert second.counter is BudgetName.TOOL_CALLS, "the refused counter as the budget it is"
        ok = store.append(
            request_after(
                "run-a",
                first.head,
                1,
                "three",
                counters=(CounterGuard(BudgetName.TOOL_CALLS, 1, 3),),
                unique_keys=("k",),
            )
        )
        assert isinstance(ok, Appended), "nothing of the refused append may have been written"

    def test_concurrent_appends_on_one_head_commit_exactly_once(self, store: EventStore) -> None:
        results: list[object] = []
        barrier = threading.Barrier(8)

        def attempt(index: int) -> None:
            barrier.wait()
            results.append(store.append(request_after("run-a", GENESIS, 1, f"c{index}")))

        threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sum(isinstance(result, Appended) for result in results) == 1
        assert sum(isinstance(result, SequenceConflict) for result in results) == 7

    # -- waiting for a run's next append (retries wait for the call they repeat) -------------

    def test_waiting_returns_once_another_thread_appends_to_the_run(
        self, store: EventStore
    ) -> None:
        assert isinstance(store, AppendWaiter)
        first = store.append(request_after("run-a", GENESIS, 1, "one"))
        assert isinstance(first, Appended)
        store.append(request_after("run-b", GENESIS, 1, "other"))  # another run: no wake-up
        timer = threading.Timer(
            0.1, lambda: store.append(request_after("run-a", first.head, 1, "two"))
        )
        started = time.monotonic()
        timer.start()
        try:
            assert store.wait_for_append("run-a", first.head.sequence, 10.0) is True
        finally:
            timer.join()
        assert time.monotonic() - started < 5.0

    def test_waiting_on_a_run_that_already_grew_returns_at_once(self, store: EventStore) -> None:
        assert isinstance(store, AppendWaiter)
        store.append(request_after("run-a", GENESIS, 2, "one"))
        started = time.monotonic()
        assert store.wait_for_append("run-a", 1, 10.0) is True
        assert time.monotonic() - started < 5.0

    def test_waiting_ends_at_its_timeout_when_nothing_is_appended(self, store: EventStore) -> None:
        assert isinstance(store, AppendWaiter)
        store.append(request_after("run-a", GENESIS, 1, "one"))
        started = time.monotonic()
        assert store.wait_for_append("run-a", 1, 0.3) is False
        assert store.wait_for_append("nobody", 0, 0.1) is False
        assert time.monotonic() - started >= 0.35

    # -- partition logs and the run index --------------------------------------------------

    def test_partition_logs_hold_every_event_in_append_order_from_a_checkpoint(
        self, store: EventStore
    ) -> None:
        heads = {}
        for run in ("run-a", "run-b", "run-c"):
            outcome = store.append(request_after(run, GENESIS, 2, f"{run}-1"))
            assert isinstance(outcome, Appended)
            heads[run] = outcome.head
        store.append(request_after("run-a", heads["run-a"], 1, "run-a-2"))
        seen: list[tuple[str, int]] = []
        for partition in range(store.partitions):
            after: str | None = None
            while True:
                page = store.read_log(partition, after, 2)
                assert isinstance(page, Success)
                entries = page.unwrap()
                if not entries:
                    break
                seen += [(entry.event.run_id, entry.event.sequence) for entry in entries]
                for entry in entries:
                    assert store.partition_of(entry.event.run_id) == partition
                after = entries[-1].position
        assert sorted(seen) == [
            ("run-a", 1), ("run-a", 2), ("run-a", 3), ("run-b", 1), ("run-b", 2),
            ("run-c", 1), ("run-c", 2),
        ]  # fmt: skip
        assert [s for r, s in seen if r == "run-a"] == [1, 2, 3]

    def test_runs_are_listed_newest_first_with_their_state_and_head(
        self, store: EventStore, clock: Clock
    ) -> None:
        base = clock.now()
        for index, run in enumerate(("run-a", "run-b", "run-c")):
            store.append(
                request_after(
                    run,
                    GENESIS,
                    1,
                    f"{run}-start",
                    started_at=base + timedelta(seconds=index),
                    meta=(MetaField("state", "RUNNING"),),
                )
            )
        store.append(
            request_after(
                "run-b", ChainHead(1, events_after("run-b", GENESIS, 1)[0].hash), 1, "end",
                meta=(MetaField("state", "CANCELLED"),),
            )
        )  # fmt: skip
        listed = store.list_runs(10)
        assert isinstance(listed, Success)
        entries = listed.unwrap()
        assert [entry.run_id for entry in entries] == ["run-c", "run-b", "run-a"]
        assert [entry.state for entry in entries] == ["RUNNING", "CANCELLED", "RUNNING"]
        assert entries[1].head.sequence == 2
        limited = store.list_runs(2)
        assert isinstance(limited, Success)
        assert len(limited.unwrap()) == 2

    # -- the vault ---------------------------------------------------------------------------

    def test_bodies_written_with_an_append_are_readable(
        self, make_store: StoreFactory, clock: Clock
    ) -> None:
        store, vault = make_store()
        key = PayloadKey("run-a", "call-1", PayloadPart.RAW)
        write = PayloadWrite(key, b"raw body", clock.now() + timedelta(hours=1))
        assert isinstance(
            store.append(request_after("run-a", GENESIS, payloads=(write,))), Appended
        )
        assert vault.get_many([key]) == Success((b"raw body",))

    def test_bodies_of_a_refused_append_are_not_written(
        self, make_store: StoreFactory, clock: Clock
    ) -> None:
        store, vault = make_store()
        store.append(request_after("run-a", GENESIS, 1, "one"))
        key = PayloadKey("run-a", "call-1", PayloadPart.RAW)
        write = PayloadWrite(key, b"raw body", clock.now() + timedelta(hours=1))
        assert isinstance(
            store.append(request_after("run-a", GENESIS, 1, "two", payloads=(write,))),
            SequenceConflict,
        )
        assert vault.get_many([key]) == Success((None,))
