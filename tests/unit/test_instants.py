"""Every instant a contract accepts is an ISO-8601 date and time with a time zone: a number, or
a numeric string pydantic would read as a Unix timestamp, is refused wherever a window is given
(the logs and metrics tools, the HTTP API, recorded transcripts) and by a team's own tools."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from pydantic import BaseModel, ValidationError

from factledger import Settings, build_harness
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.http.models import StartRunRequest
from factledger.adapters.metrics.tool import MetricsInput
from factledger.adapters.models.transcript import TranscriptError, load_transcript
from factledger.application.contracts.envelope import LogsInput
from factledger.application.harness_errors import HarnessError, HarnessErrorCode
from factledger.tools import Instant, StrictModel

NOT_INSTANTS = ["0", "1764406800", "1764406800.5", "-1", "2026", "2026-11-29", "09:00Z", "now"]
OUTSIDE_UTC = ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+01:00", "9999-12-31T23:30-00:31"]
INSTANTS = ["2026-11-29T09:00:00Z", "2026-11-29T09:00Z", "2026-11-29 09:00:00+01:00"]


class OwnWindow(StrictModel):
    """A team's own tool input with a window."""

    since: Instant


def _logs(value: str) -> dict[str, object]:
    return {"service": "s", "query": "", "start": value, "end": "2026-11-29T10:00:00Z"}


def _metrics(value: str) -> dict[str, object]:
    return {"query": "up", "start": value, "end": "2026-11-29T10:00:00Z"}


MODELS: list[tuple[type[BaseModel], object]] = [
    (LogsInput, _logs),
    (MetricsInput, _metrics),
    (StartRunRequest, lambda value: {"service": "s", "start": value}),
    (OwnWindow, lambda value: {"since": value}),
]


@pytest.mark.parametrize(("model", "body"), MODELS, ids=lambda m: getattr(m, "__name__", "body"))
@pytest.mark.parametrize("value", NOT_INSTANTS)
def test_a_text_that_is_no_iso_date_and_time_is_refused(
    model: type[BaseModel], body: object, value: str
) -> None:
    assert callable(body)
    with pytest.raises(ValidationError):
        model.model_validate_json(json.dumps(body(value)))


@pytest.mark.parametrize(("model", "body"), MODELS, ids=lambda m: getattr(m, "__name__", "body"))
@pytest.mark.parametrize("value", INSTANTS)
def test_an_iso_date_and_time_with_a_zone_is_read(
    model: type[BaseModel], body: object, value: str
) -> None:
    assert callable(body)
    parsed = model.model_validate_json(json.dumps(body(value)))
    assert any(
        isinstance(v, datetime) and v.tzinfo is not None for v in parsed.model_dump().values()
    )


def test_the_schema_still_says_a_date_time_string() -> None:
    schema = OwnWindow.model_json_schema()["properties"]["since"]
    assert schema["type"] == "string"
    assert schema["format"] == "date-time"


def test_a_transcript_whose_window_is_a_number_is_refused(tmp_path: object) -> None:
    text = json.dumps({"context": {"service": "s", "start": "0"}, "turns": [{"cancel": True}]})
    with pytest.raises(TranscriptError):
        load_transcript(text)


def test_a_datetime_object_passes_as_before() -> None:
    since = datetime(2026, 11, 29, 9, tzinfo=UTC)
    assert OwnWindow(since=since).since == since


@pytest.mark.parametrize(("model", "body"), MODELS, ids=lambda m: getattr(m, "__name__", "body"))
@pytest.mark.parametrize("value", OUTSIDE_UTC)
def test_an_instant_whose_utc_form_is_outside_years_1_to_9999_is_refused(
    model: type[BaseModel], body: object, value: str
) -> None:
    assert callable(body)
    with pytest.raises(ValidationError, match="between the years 1 and 9999"):
        model.model_validate_json(json.dumps(body(value)))


@pytest.mark.parametrize("value", OUTSIDE_UTC)
def test_the_facade_refuses_a_window_utc_cannot_hold_as_invalid_input(value: str) -> None:
    instant = datetime.fromisoformat(value)
    with (
        build_harness(Settings(store=StoreSettings(kind="memory"))) as harness,
        pytest.raises(HarnessError) as raised,
    ):
        harness.start_run(service="s", start=instant)
    assert raised.value.code == HarnessErrorCode.INVALID_INPUT
