"""``json_head`` gives a JSON line's time, level, service and whether it has a stack exactly
as parsing the whole record does, for any JSON object line."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from factledger.domain.logs.line_format import json_head, parse_line

_KEYS = st.sampled_from(
    [
        "ts",
        "time",
        "@timestamp",
        "level",
        "severity",
        "lvl",
        "message",
        "msg",
        "event",
        "service",
        "app",
        "stack",
        "exception",
        "exc_info",
        "other",
    ]
)
_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 2_000_000_000_000),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(
        [
            "2026-03-14T00:00:00.050Z",
            "2026-03-14 00:00:00",
            "INFO",
            "warning",
            "Err",
            "nope",
            "line one\nline two",
            "first\n \n",
            "",
        ]
    ),
    st.lists(st.one_of(st.text(max_size=5), st.integers()), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, max_size=8), st.sampled_from(["", " ", "\r"]))
def test_the_head_is_what_the_whole_record_says(value: dict[str, object], edge: str) -> None:
    line = edge.strip("\r") + json.dumps(value) + edge
    record = parse_line(line)
    assert json_head(line) == (record.ts, record.level, record.service, bool(record.stack))


def test_a_line_that_is_no_json_object_has_no_head() -> None:
    assert json_head("[1, 2]") is None
    assert json_head('{"ts": ') is None
    assert json_head("2026-03-14T00:00:00Z INFO started") is None
