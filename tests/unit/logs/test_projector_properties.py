"""Properties of the projector over generated inputs: it never raises, never leaks."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from returns.result import Failure, Success

from factledger.domain.json_types import JsonValue
from factledger.domain.logs.projector import LogProjectionSettings, project_logs
from tests.unit.logs.raw_builders import OPEN, raw, record

DATA = Path(__file__).resolve().parents[2] / "data" / "redaction"
SECRET_ROWS = [
    json.loads(line)
    for line in (DATA / "corpus.jsonl").read_text().splitlines()
    if json.loads(line)["placeholder"] == "<SECRET>"
]
SMALL = LogProjectionSettings(budget_bytes=4_096)

json_values: st.SearchStrategy[JsonValue] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=400))
def test_any_text_as_raw_gives_a_result_or_a_stated_failure_never_an_exception(
    text: str,
) -> None:
    outcome = project_logs(text, OPEN, SMALL)
    assert isinstance(outcome, Success | Failure)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(json_values, max_size=5))
def test_records_of_any_shape_give_a_result_or_a_stated_failure(items: list[JsonValue]) -> None:
    text = raw([record("x")])
    broken = text.replace(
        '"records":[', '"records":[' + "".join(json.dumps(item) + "," for item in items)
    )
    outcome = project_logs(broken, OPEN, SMALL)
    assert isinstance(outcome, Success | Failure)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.integers(0, len(SECRET_ROWS) - 1), min_size=1, max_size=6),
    where=st.sampled_from(["message", "field", "stack", "nested"]),
    prefix=st.text(alphabet="abc xyz=:,", max_size=12),
)
def test_no_corpus_secret_survives_projection_wherever_it_sits(
    picks: list[int], where: str, prefix: str
) -> None:
    rows = [SECRET_ROWS[index] for index in picks]
    records = []
    for row in rows:
        line = prefix + row["line"]
        if where == "message":
            records.append(record(line, level="ERROR"))
        elif where == "field":
            records.append(record("request failed", level="ERROR", fields={"detail": line}))
        elif where == "stack":
            records.append(
                record("request failed", level="ERROR", stack=["java.lang.Error: " + line])
            )
        else:
            records.append(
                record("request failed", level="ERROR", fields={"ctx": {"inner": [line]}})
            )
    result = project_logs(raw(records), OPEN).unwrap()
    text = json.dumps(result.agent_result, ensure_ascii=False)
    for row in rows:
        for value in row["values"]:
            fragment = value[: min(12, len(value))]
            assert fragment not in text, (row["format"], where)
