"""One rule for a run id no run has: every operation raises UNKNOWN_RUN, sync and async alike
(HTTP answers 404 and MCP a tool error with that code, see the transports' tests)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from factledger import AsyncHarness, Harness, HarnessError, HarnessErrorCode, ObservationStatus
from tests.unit.facade.conftest import LOOKUP, start

OPERATIONS: dict[str, Callable[[Harness, str], object]] = {
    "call_tool": lambda h, r: h.call_tool(r, "c1", "lookup_knowledge", LOOKUP),
    "call_tool, not an evidence tool": lambda h, r: h.call_tool(
        r, "c1", "my_tool", "{}", passthrough=lambda name, args: "host"
    ),
    "call_tool, bad arguments": lambda h, r: h.call_tool(r, "c1", "lookup_knowledge", "{"),
    "observe": lambda h, r: h.observe(r, "c1", "lookup_knowledge", LOOKUP),
    "release": lambda h, r: h.release(r, None),
    "released": lambda h, r: h.released(r),
    "cancel": lambda h, r: h.cancel(r),
    "run_summary": lambda h, r: h.run_summary(r),
    "enforce_deadline": lambda h, r: h.enforce_deadline(r),
    "record_model_usage": lambda h, r: h.record_model_usage(r, 1, 10, 10),
    "tool_definitions": lambda h, r: h.tool_definitions(r),
    "canonical_view": lambda h, r: h.canonical_view(r, "c1"),
    "control_view": lambda h, r: h.control_view(r, "c1"),
    "progress_snapshot": lambda h, r: h.progress_snapshot(r),
    "statuses": lambda h, r: h.statuses(r),
    "release_steps": lambda h, r: h.release_steps(r),
}


@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_an_unknown_run_is_the_same_error_for_every_operation(
    harness: Harness, operation: str
) -> None:
    with pytest.raises(HarnessError) as raised:
        OPERATIONS[operation](harness, "run-nobody-started")
    assert raised.value.code is HarnessErrorCode.UNKNOWN_RUN
    assert "run-nobody-started" not in str(raised.value)


def test_the_async_facade_raises_the_same_error(harness: Harness) -> None:
    async def scenario() -> list[HarnessErrorCode]:
        facade = AsyncHarness(harness)
        codes = []
        for call in (
            facade.observe("nope", "c1", "lookup_knowledge", LOOKUP),
            facade.release("nope", None),
            facade.cancel("nope"),
            facade.progress_snapshot("nope"),
            facade.record_model_usage("nope", 1, 0, 0),
        ):
            with pytest.raises(HarnessError) as raised:
                await call
            codes.append(raised.value.code)
        return codes

    assert set(asyncio.run(scenario())) == {HarnessErrorCode.UNKNOWN_RUN}


def test_a_run_that_exists_but_ended_still_answers_the_model_with_an_observation(
    harness: Harness,
) -> None:
    run_id = start(harness)
    harness.cancel(run_id)
    observation = harness.observe(run_id, "c1", "lookup_knowledge", LOOKUP)
    assert observation.status is ObservationStatus.REFUSED
    assert observation.error_code == "RUN_NOT_ACTIVE"
