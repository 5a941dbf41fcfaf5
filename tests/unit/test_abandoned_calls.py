"""A call still PROJECTING past its timeout plus the grace period (its worker died) is closed as
ERROR ABANDONED by the next command on its run; it never reserves raw or projection bytes,
and a worker that comes back late cannot make it READY."""

from __future__ import annotations

import threading
from datetime import timedelta

from factledger.adapters.memory.clock import ManualClock
from factledger.application.abandoned_calls import ClosedCalls, close_abandoned
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.invocation import Failed, Projecting, Ready
from factledger.domain.json_types import JsonObject
from tests.support.calls import (
    NOTHING,
    CallWorld,
    CountingBackend,
    args,
    call_settings,
    call_world,
    manual_clock,
    store_settings,
)

TIMEOUT = 10.0
GRACE = 5.0
SETTINGS = call_settings(
    store_settings("memory"), call_timeout_seconds=TIMEOUT, abandon_grace_seconds=GRACE
)


def _hang(world: CallWorld, hold: threading.Event, tool_call_id: str) -> dict[str, JsonObject]:
    """Begin a call whose backend hangs until ``hold`` is set (its worker 'dies' meanwhile)."""
    out: dict[str, JsonObject] = {}
    thread = threading.Thread(
        target=lambda: out.update(late=world.call(tool_call_id, args("pool exhausted"))),
        daemon=True,
    )
    thread.start()
    assert world.backend.entered.wait(timeout=10)
    world.backend.hold = None
    out["thread"] = thread  # type: ignore[assignment]
    return out


def test_the_next_call_closes_a_call_older_than_its_timeout_and_grace() -> None:
    clock = manual_clock()
    hold = threading.Event()
    with call_world(SETTINGS, clock=clock, backend=CountingBackend(hold=hold)) as world:
        late = _hang(world, hold, "orphan")
        usage_before = world.log().run.usage  # type: ignore[union-attr]

        clock.advance(timedelta(seconds=TIMEOUT + GRACE - 1))
        world.call("early", args(NOTHING))
        assert isinstance(world.log().invocation("orphan"), Projecting)

        clock.advance(timedelta(seconds=2))
        assert world.call("next", args("deadlock"))["status"] == "READY"
        closed = world.log().invocation("orphan")
        assert isinstance(closed, Failed)
        assert closed.error_code is ToolBoundaryErrorCode.ABANDONED
        assert closed.raw_bytes is None
        log = world.log()
        assert log.progress.call_scopes.get("orphan") is not None
        usage = log.run.usage  # type: ignore[union-attr]
        ready = [item for item in log.invocations.values() if isinstance(item, Ready)]
        assert usage.raw_bytes == sum(item.raw_bytes for item in ready)
        assert usage.projection_bytes == sum(item.projection_bytes for item in ready)
        assert usage.tool_calls == usage_before.tool_calls + 2

        hold.set()
        late["thread"].join(timeout=30)  # type: ignore[attr-defined]
        assert late["late"] == {
            "tool_call_id": "orphan",
            "status": "ERROR",
            "error_code": "ABANDONED",
        }
        assert world.log().run.usage == usage  # type: ignore[union-attr]
        assert world.call("orphan", args("pool exhausted")) == late["late"]


def test_close_abandoned_is_a_use_case_of_its_own() -> None:
    clock = ManualClock()
    hold = threading.Event()
    with call_world(SETTINGS, clock=clock, backend=CountingBackend(hold=hold)) as world:
        late = _hang(world, hold, "orphan")
        runs = world.runtime.runs
        assert close_abandoned(runs, world.run_id, clock.now()) == ClosedCalls(())
        clock.advance(timedelta(seconds=TIMEOUT + GRACE))
        assert close_abandoned(runs, world.run_id, clock.now()) == ClosedCalls(("orphan",))
        assert close_abandoned(runs, world.run_id, clock.now()) == ClosedCalls(())
        types = world.event_types()
        assert types[-2:] == ["INVOCATION_FAILED", "CALL_OUTCOME_RECORDED"]
        hold.set()
        late["thread"].join(timeout=30)  # type: ignore[attr-defined]


def test_a_call_on_a_cancelled_run_still_closes_what_was_abandoned() -> None:
    clock = manual_clock()
    hold = threading.Event()
    with call_world(SETTINGS, clock=clock, backend=CountingBackend(hold=hold)) as world:
        late = _hang(world, hold, "orphan")
        world.runtime.run_service.cancel(world.run_id)
        clock.advance(timedelta(seconds=TIMEOUT + GRACE + 1))
        refused = world.call("after", args("deadlock"))
        assert refused["error_code"] == "RUN_NOT_ACTIVE"
        assert isinstance(world.log().invocation("orphan"), Failed)
        hold.set()
        late["thread"].join(timeout=30)  # type: ignore[attr-defined]


def test_the_release_closes_an_abandoned_call_before_it_decides() -> None:
    clock = manual_clock()
    hold = threading.Event()
    with call_world(SETTINGS, clock=clock, backend=CountingBackend(hold=hold)) as world:
        late = _hang(world, hold, "orphan")
        clock.advance(timedelta(seconds=TIMEOUT + GRACE + 1))
        draft = (
            '{"conclusion": "The pool is exhausted.", "analyses": [{"kind": '
            '"SUPPORTING_EVIDENCE", "claim": "The pool is exhausted.", '
            '"tool_call_ids": ["orphan"]}]}'
        )
        result = world.runtime.releases.release(world.run_id, draft)
        closed = world.log().invocation("orphan")
        assert isinstance(closed, Failed)
        assert closed.error_code is ToolBoundaryErrorCode.ABANDONED
        assert not isinstance(result, ClosedCalls)
        published = getattr(result, "published_result", None)
        assert published is None
        hold.set()
        late["thread"].join(timeout=30)  # type: ignore[attr-defined]
        assert late["late"]["error_code"] == "ABANDONED"
