"""``GET /runs/{run_id}/events``: each status change once, then one ``released`` event, then
the end; bounded by the client leaving and by the longest wait."""

from __future__ import annotations

import json
import threading
import time

import httpx
import pytest
from attrs import frozen

from factledger.adapters.http import ApiOptions, create_app
from factledger.application.harness import Harness
from factledger.application.run_timeline import TimelineEntry
from factledger.domain.json_types import JsonObject, JsonValue
from tests.integration.http.conftest import Served
from tests.integration.http.serving import draft, drive_calls, planted_secrets, serving, start_run

EVERY_STATUS = [
    "RECEIVED",
    "DIAGNOSIS_RUNNING",
    "COLLECTING_EVIDENCE",
    "SAFETY_VALIDATING",
    "RELEASING",
    "DONE",
]


@frozen
class Event:
    """One server-sent event."""

    name: str
    event_id: str | None
    data: JsonValue


def read_events(response: httpx.Response, first: threading.Event | None = None) -> list[Event]:
    """Every event of a stream, until the server closes it (``first`` is set on the first)."""
    events: list[Event] = []
    name, event_id, data = "message", None, list[str]()
    for line in response.iter_lines():
        if not line:
            if data:
                events.append(Event(name, event_id, json.loads("\n".join(data))))
                if first is not None:
                    first.set()
            name, event_id, data = "message", None, list[str]()
        elif not line.startswith(":"):
            field, _, value = line.partition(": ")
            if field == "event":
                name = value
            elif field == "id":
                event_id = value
            elif field == "data":
                data.append(value)
    return events


def _calls(events: list[Event]) -> list[tuple[JsonValue, JsonValue]]:
    return [
        (e.data.get("tool_call_id"), e.data.get("status"))
        for e in events
        if e.name == "call" and isinstance(e.data, dict)
    ]


def _call_data(events: list[Event]) -> list[JsonObject]:
    return [e.data for e in events if e.name == "call" and isinstance(e.data, dict)]


def _statuses(events: list[Event]) -> list[JsonValue]:
    return [e.data.get("status") for e in events if e.name == "status" and isinstance(e.data, dict)]


def test_the_stream_sends_each_status_once_then_one_released_event_and_closes(
    client: httpx.Client,
) -> None:
    run_id = start_run(client)
    released: list[JsonObject] = []
    streaming = threading.Event()

    def agent() -> None:
        assert streaming.wait(10), "the stream sent nothing"
        drive_calls(client, run_id)
        released.append(client.post(f"/runs/{run_id}/release", json={"draft": draft()}).json())

    worker = threading.Thread(target=agent)
    worker.start()
    with client.stream("GET", f"/runs/{run_id}/events") as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events = read_events(response, streaming)
    worker.join()

    assert _statuses(events) == EVERY_STATUS
    assert [e.event_id for e in events[:-1]] == [str(n) for n in range(1, len(events))]
    assert [e.name for e in events].count("released") == 1
    assert events[-1].name == "released"
    assert events[-1].data == released[0]
    assert isinstance(events[-1].data, dict)
    assert events[-1].data["outcome"] == "SUCCESS"


def test_a_status_event_carries_no_conclusion(client: httpx.Client) -> None:
    run_id = start_run(client)
    drive_calls(client, run_id)
    client.post(f"/runs/{run_id}/release", json={"draft": draft()})

    with client.stream("GET", f"/runs/{run_id}/events") as response:
        events = read_events(response)

    for event in events[:-1]:
        assert isinstance(event.data, dict)
        if event.name == "status":
            assert set(event.data) == {"status", "at", "sequence"}
        else:
            assert event.name == "call"
            assert set(event.data) <= CALL_KEYS


CALL_KEYS = {
    "tool_call_id",
    "tool_name",
    "status",
    "at",
    "sequence",
    "evidence_status",
    "truncated",
    "error_code",
}


def test_each_tool_call_streams_its_transitions_as_safe_metadata(client: httpx.Client) -> None:
    run_id = start_run(client)
    drive_calls(client, run_id)
    client.post(f"/runs/{run_id}/release", json={"draft": draft()})

    with client.stream("GET", f"/runs/{run_id}/events") as response:
        events = read_events(response)

    transitions = _calls(events)
    for call_id in ("call-1", "call-2", "call-3", "call-4"):
        assert [status for cid, status in transitions if cid == call_id] == [
            "RESERVED",
            "PROJECTING",
            "READY",
        ]
    ready = [d for d in _call_data(events) if d["status"] == "READY"]
    assert {d["tool_name"] for d in ready} == {
        "lookup_knowledge",
        "query_logs",
        "query_sql",
        "query_metrics",
    }
    assert all(d["evidence_status"] in ("EVIDENCE_FOUND", "NO_EVIDENCE") for d in ready)
    text = json.dumps([e.data for e in events if e.name == "call"])
    for secret in planted_secrets():
        assert secret not in text


def test_a_client_that_reconnects_with_last_event_id_gets_only_what_it_missed(
    client: httpx.Client,
) -> None:
    run_id = start_run(client)
    drive_calls(client, run_id)
    client.post(f"/runs/{run_id}/release", json={"draft": draft()})

    with client.stream("GET", f"/runs/{run_id}/events") as response:
        everything = read_events(response)
    releasing = next(
        e for e in everything if isinstance(e.data, dict) and e.data.get("status") == "RELEASING"
    )
    before = str(int(releasing.event_id or "0") - 1)

    with client.stream(
        "GET", f"/runs/{run_id}/events", headers={"Last-Event-ID": before}
    ) as response:
        events = read_events(response)

    assert _statuses(events) == ["RELEASING", "DONE"]
    assert [e.name for e in events] == ["status", "status", "released"]
    assert events[0].event_id == releasing.event_id


def test_a_stream_that_waits_past_its_limit_ends_with_one_timeout_event(served: Served) -> None:
    options = ApiOptions(token=served.token, events_max_wait_seconds=0.5, events_poll_seconds=0.05)
    with serving(create_app(served.harness, options)) as url, served.client() as client:
        run_id = start_run(client)
        started = time.monotonic()
        with client.stream("GET", f"{url}/runs/{run_id}/events") as response:
            events = read_events(response)
        waited = time.monotonic() - started

    assert _statuses(events) == ["RECEIVED", "DIAGNOSIS_RUNNING"]
    assert events[-1].name == "timeout"
    assert "released" not in [e.name for e in events]
    assert 0.5 <= waited < 5


class CountingHarness(Harness):
    """The served harness, counting how often each run's timeline is read."""

    def __init__(self, harness: Harness) -> None:
        super().__init__(harness.parts)
        self.reads: dict[str, int] = {}
        self.changed = threading.Condition()

    def timeline(self, run_id: str) -> tuple[TimelineEntry, ...]:
        with self.changed:
            self.reads[run_id] = self.reads.get(run_id, 0) + 1
            self.changed.notify_all()
        return super().timeline(run_id)

    def wait_reads(self, run_id: str, count: int) -> None:
        """Until ``run_id``'s timeline has been read ``count`` times."""
        with self.changed:
            assert self.changed.wait_for(lambda: self.reads.get(run_id, 0) >= count, 10)


def test_a_client_that_leaves_stops_the_poll(served: Served) -> None:
    counting = CountingHarness(served.harness)
    options = ApiOptions(token=served.token, events_max_wait_seconds=30, events_poll_seconds=0.02)
    with serving(create_app(counting, options)) as url, served.client() as client:
        left, watched = start_run(client), start_run(client)
        with client.stream("GET", f"{url}/runs/{left}/events") as response:
            first = next(response.iter_lines())
        assert first == "event: status"
        # A second stream's polls are the clock: by its 20th the first has seen its client go;
        # from then to its 40th, the first must not have polled again.
        with client.stream("GET", f"{url}/runs/{watched}/events"):
            counting.wait_reads(watched, 20)
            after_leaving = counting.reads[left]
            counting.wait_reads(watched, 40)
            assert counting.reads[left] == after_leaving

        assert after_leaving > 0


@pytest.mark.parametrize("spelling", ["+0.0", "1e0", "0x1", "-1", "3.0", "7_0", ""])
def test_a_last_event_id_that_is_not_plain_decimal_digits_is_refused_as_an_invalid_request(
    client: httpx.Client, spelling: str
) -> None:
    """The id a server sent is plain digits: any other spelling is a client bug, not an id."""
    run_id = start_run(client)

    response = client.get(f"/runs/{run_id}/events", headers={"Last-Event-ID": spelling})

    assert response.status_code == 422
    assert response.json()["code"] == "INVALID_REQUEST"
