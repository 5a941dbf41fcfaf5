"""Schemathesis against the API's own OpenAPI document, over a real uvicorn.

For every operation it generates requests from the schema (bounded: ``MAX_EXAMPLES`` each) and
checks every default schemathesis check (no 5xx, responses and their media types match the
document, auth is enforced...). Positive requests come from the document as served (the bearer
token is its auth, so the auth checks run); negative requests from the same document without
its security requirements, so that they break parameters and bodies rather than only drop the
token. Path parameters are drawn partly from real runs, so requests reach released, running and
secret-bearing runs, not only unknown ids; no response may carry a secret planted in the demo
logs.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest
import schemathesis
from attrs import frozen
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import Case, GenerationMode, Response
from schemathesis.specs.openapi.checks import positive_data_acceptance

from factledger.adapters.http import ApiOptions, create_app
from factledger.application.harness import Harness
from tests.integration.http.serving import (
    draft,
    drive_calls,
    logs_call,
    planted_secrets,
    serving,
    start_run,
)

FuzzCase = Case[Any]
"""A generated request (of any operation)."""

MAX_EXAMPLES = 60
"""Generated requests per operation and mode (the module runs in about 20 s)."""

_SECRET_QUERIES = (
    ("call-s1", "card-gateway", "acquirer client configured"),
    ("call-s2", "card-gateway", "outbound headers"),
    ("call-s3", "payments-api", "database pool ready"),
)


@frozen
class Fuzzed:
    """The API under fuzzing and the real ids worth aiming at."""

    url: str
    token: str
    run_ids: tuple[str, ...]
    tool_call_ids: tuple[str, ...]

    @property
    def headers(self) -> dict[str, str]:
        """The right bearer token."""
        return {"Authorization": f"Bearer {self.token}"}


@pytest.fixture(scope="module")
def fuzzed(harness: Harness, token: str) -> Iterator[Fuzzed]:
    """The API with three runs: released (honest), running (honest calls) and one whose calls
    read the very log lines that hold the planted secrets."""
    options = ApiOptions(token=token, events_max_wait_seconds=0.3, events_poll_seconds=0.05)
    with (
        serving(create_app(harness, options)) as url,
        httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}) as client,
    ):
        released = start_run(client)
        drive_calls(client, released)
        client.post(f"/runs/{released}/release", json={"draft": draft()}).raise_for_status()
        running = start_run(client)
        drive_calls(client, running)
        secret_bearing = start_run(client)
        previous = None
        for tool_call_id, service, query in _SECRET_QUERIES:
            body = {
                "tool_call_id": tool_call_id,
                "tool_name": "query_logs",
                "arguments": logs_call(service, query, previous),
            }
            observation = client.post(f"/runs/{secret_bearing}/tool-calls", json=body).json()
            assert observation["status"] == "READY", observation
            assert observation["matched_count"] >= 1, observation
            previous = tool_call_id
        call_ids = ("call-1", "call-2", "call-3", "call-4", *(q[0] for q in _SECRET_QUERIES))
        yield Fuzzed(url, token, (released, running, secret_bearing), call_ids)


@pytest.fixture(scope="module")
def api_schema(fuzzed: Fuzzed) -> schemathesis.BaseSchema:
    """The API's own OpenAPI document, as served, with the bearer token as its auth."""
    schema = schemathesis.openapi.from_url(f"{fuzzed.url}/openapi.json")

    @schema.auth()
    class Bearer:
        def get(self, case: FuzzCase, context: schemathesis.AuthContext) -> str:
            return fuzzed.token

        def set(self, case: FuzzCase, data: str, context: schemathesis.AuthContext) -> None:
            case.headers["Authorization"] = f"Bearer {data}"

    return schema


@pytest.fixture(scope="module")
def unsecured_schema(fuzzed: Fuzzed) -> schemathesis.BaseSchema:
    """The same document without its security requirements: negative requests then break the
    documented parameters and bodies (not the token, which every request here carries)."""
    document = httpx.get(f"{fuzzed.url}/openapi.json").json()
    for operations in document["paths"].values():
        for operation in operations.values():
            operation.pop("security", None)
    schema = schemathesis.openapi.from_dict(document)
    schema.config.update(base_url=fuzzed.url)
    return schema


OPERATIONS = (
    ("GET", "/runs"),
    ("POST", "/runs"),
    ("GET", "/runs/{run_id}"),
    ("GET", "/runs/{run_id}/tools"),
    ("POST", "/runs/{run_id}/tool-calls"),
    ("POST", "/runs/{run_id}/release"),
    ("GET", "/runs/{run_id}/release"),
    ("POST", "/runs/{run_id}/cancel"),
    ("GET", "/runs/{run_id}/calls/{tool_call_id}/canonical"),
    ("GET", "/runs/{run_id}/calls/{tool_call_id}/control"),
    ("GET", "/runs/{run_id}/progress"),
    ("GET", "/runs/{run_id}/statuses"),
    ("GET", "/runs/{run_id}/events"),
    ("POST", "/runs/{run_id}/check"),
    ("GET", "/runs/{run_id}/verification"),
    ("GET", "/healthz"),
    ("GET", "/metrics"),
)
"""Every operation of the document (checked below, so a new endpoint cannot go unfuzzed)."""


def test_the_fuzzed_operations_are_every_operation_of_the_document(fuzzed: Fuzzed) -> None:
    document = httpx.get(f"{fuzzed.url}/openapi.json").json()

    served = {(method.upper(), path) for path, ops in document["paths"].items() for method in ops}

    assert served == set(OPERATIONS)


def _aim(case: FuzzCase, data: st.DataObject, fuzzed: Fuzzed) -> None:
    """Point a generated request at a real run or call some of the time."""
    parameters = case.path_parameters
    if "run_id" in parameters:
        choices = (*fuzzed.run_ids, parameters["run_id"])
        parameters["run_id"] = data.draw(st.sampled_from(choices), label="run_id")
    if "tool_call_id" in parameters:
        choices = (*fuzzed.tool_call_ids, parameters["tool_call_id"])
        parameters["tool_call_id"] = data.draw(st.sampled_from(choices), label="tool_call_id")


def _refused_window(case: FuzzCase, response: Response) -> bool:
    """A schema-valid ``POST /runs`` whose window ends before it starts: 422 INVALID_INPUT."""
    if (case.method, case.path) != ("POST", "/runs") or response.status_code != 422:
        return False
    if response.json()["code"] != "INVALID_INPUT":
        return False
    body = case.body
    assert isinstance(body, dict)
    start, end = body.get("start"), body.get("end")
    assert isinstance(start, str), body
    assert isinstance(end, str), body
    assert datetime.fromisoformat(end) < datetime.fromisoformat(start), body
    return True


NEGATABLE = (
    ("POST", "/runs"),
    ("GET", "/runs/{run_id}/tools"),
    ("POST", "/runs/{run_id}/tool-calls"),
    ("POST", "/runs/{run_id}/release"),
    ("GET", "/runs/{run_id}/events"),
    ("POST", "/runs/{run_id}/check"),
)
"""The operations with something to break besides a path string (a body, a query, a header)."""


@pytest.mark.parametrize(
    ("mode", "method", "path"),
    [
        *((GenerationMode.POSITIVE, method, path) for method, path in OPERATIONS),
        *((GenerationMode.NEGATIVE, method, path) for method, path in NEGATABLE),
    ],
)
def test_every_generated_request_gets_a_documented_answer_without_a_planted_secret(
    method: str,
    path: str,
    mode: GenerationMode,
    api_schema: schemathesis.BaseSchema,
    unsecured_schema: schemathesis.BaseSchema,
    fuzzed: Fuzzed,
) -> None:
    negative = mode is GenerationMode.NEGATIVE
    operation = (unsecured_schema if negative else api_schema)[path][method]
    headers = fuzzed.headers if negative else None
    secrets = planted_secrets()

    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(case=operation.as_strategy(generation_mode=mode), data=st.data())
    def answers(case: FuzzCase, data: st.DataObject) -> None:
        _aim(case, data, fuzzed)

        response = case.call(headers=headers)

        assert response.status_code < 500, response.text[:500]
        for secret in secrets:
            assert secret not in response.text, (operation.label, secret)
        excluded: list[schemathesis.CheckFunction] = []
        if _refused_window(case, response):
            excluded.append(positive_data_acceptance)  # no JSON Schema says "end >= start"
        case.validate_response(response, headers=headers, excluded_checks=excluded)

    answers()
