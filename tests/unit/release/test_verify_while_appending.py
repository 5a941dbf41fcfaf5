"""A run verified while another worker appends to it is intact, not corrupted.

Verification reads the head kept outside the stream, then the stream. An append that lands
between the two reads leaves the stream longer than the head that was read; that is a run
growing, not a forged tail, and must not be reported as EXTRA_EVENTS (it made racing checks
and releases of one run answer LOG_CORRUPTED). A tail written past a head that does not move
is still caught.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from datetime import timedelta

from returns.result import Result, Success

from factledger.application.verification.run_verifier import RunVerifier
from factledger.application.verification.verdicts import LogBroken, LogIntact
from factledger.domain.chain import ChainHead, StoredEvent
from factledger.domain.event_catalog import default_codec
from factledger.ports.event_store import EventStore
from factledger.ports.store_errors import StoreUnavailable
from tests.support.release import Scenario, draft

CLAIM = "card-gateway fails with GW-504 because the acquirer connection pool is exhausted."
CONCLUSION = "The acquirer connection pool of card-gateway is exhausted, causing GW-504."


class _BetweenReads:
    """Delegates to ``inner``; runs ``between`` once after a head is read, before the
    stream is read, as a second worker's append would land."""

    def __init__(self, inner: EventStore, between: Callable[[], object]) -> None:
        self._inner = inner
        self._between: Callable[[], object] | None = between
        self.stale_head: ChainHead | None = None

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    def read_head(self, run_id: str) -> Result[ChainHead | None, StoreUnavailable]:
        if self.stale_head is not None:
            return Success(self.stale_head)
        return self._inner.read_head(run_id)

    def read_run(
        self, run_id: str, after_sequence: int = 0
    ) -> Result[tuple[StoredEvent, ...], StoreUnavailable]:
        between, self._between = self._between, None
        if between is not None:
            between()
        return self._inner.read_run(run_id, after_sequence)


def _verifier(run: Scenario, store: _BetweenReads) -> RunVerifier:
    runtime = run.runtime
    return RunVerifier(
        store,  # type: ignore[arg-type]  # a structural stand-in for the port
        runtime.vault,
        run.clock,
        default_codec(),
        release_ttl=timedelta(hours=1),
    )


def test_an_append_between_the_head_and_the_stream_leaves_the_log_intact(run: Scenario) -> None:
    run.call("c1", "GW-504 pool exhausted")
    store = _BetweenReads(run.runtime.store, lambda: run.call("c2", "acquirer pool"))
    verdict = _verifier(run, store).verify_log(run.run_id)
    assert isinstance(verdict, LogIntact), verdict


def test_full_verification_during_an_append_finds_no_problem(run: Scenario) -> None:
    run.call("c1", "GW-504 pool exhausted")
    store = _BetweenReads(run.runtime.store, lambda: run.call("c2", "acquirer pool"))
    verdict = _verifier(run, store).verify(run.run_id)
    assert (verdict.error, verdict.problems) == (None, ())


def test_a_tail_past_a_head_that_does_not_move_is_still_extra(run: Scenario) -> None:
    run.call("c1", "GW-504 pool exhausted")
    head = run.runtime.store.read_head(run.run_id).unwrap()
    assert head is not None
    store = _BetweenReads(run.runtime.store, lambda: run.call("c2", "acquirer pool"))
    store.stale_head = head  # the stream grows, the head kept outside it never does
    verdict = _verifier(run, store).verify_log(run.run_id)
    assert isinstance(verdict, LogBroken), verdict
    assert (verdict.problem.sequence, verdict.problem.reason) == (
        head.sequence + 1,
        "EXTRA_EVENTS",
    )


def test_racing_releases_of_one_run_are_never_corrupted(run: Scenario) -> None:
    run.call("c1", "GW-504 pool exhausted")
    service = run.use_cases(check_attempts=6).check
    text = json.dumps(draft(CONCLUSION, ("SUPPORTING_EVIDENCE", CLAIM, ["c1"])))
    codes: list[str] = []
    lock = threading.Lock()

    def one() -> None:
        checked = service.check(run.run_id, text)
        with lock:
            codes.append(getattr(checked, "code", "CHECKED"))

    threads = [threading.Thread(target=one) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == ["CHECKED"] * 6 + ["CHECK_LIMIT_REACHED"] * 4


def test_checks_racing_tool_calls_of_the_same_run_are_never_corrupted(run: Scenario) -> None:
    run.call("c1", "GW-504 pool exhausted")
    service = run.use_cases(check_attempts=20).check
    text = json.dumps(draft(CONCLUSION, ("SUPPORTING_EVIDENCE", CLAIM, ["c1"])))
    codes: list[str] = []
    lock = threading.Lock()

    def calls() -> None:
        for index in range(2, 9):
            run.call(f"c{index}", f"acquirer pool {index}", (f"c{index - 1}", "GAINED"))

    def one() -> None:
        for _ in range(2):
            checked = service.check(run.run_id, text)
            with lock:
                codes.append(getattr(checked, "code", "CHECKED"))

    threads = [threading.Thread(target=calls)] + [threading.Thread(target=one) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert codes == ["CHECKED"] * 12
