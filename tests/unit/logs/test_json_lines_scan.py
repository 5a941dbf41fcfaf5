"""A one-term query over files of JSON lines, where the scan parses the matched lines of a
chunk in one call, answers exactly as the reference matcher: lines that are not one JSON
object each (two objects, an array, a number, a broken object, an invalid byte, deep
nesting, odd white space) send the chunk back to one line at a time."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factledger.adapters.logs.file_backend import FileLogBackend
from factledger.domain.logs.query import LogQuery
from factledger.domain.logs.timestamps import all_in_own_form, normalize_instant
from tests.unit.logs.scan_oracle import reference_scan
from tests.unit.logs.test_scan_equivalence import tiny_reads

_LINES = [
    '{"ts":"2024-06-01T10:00:01.000Z","service":"orders","level":"ERROR","message":"done a"}',
    '{"ts":"2024-06-01T10:00:02Z","service":"billing","level":"info","msg":"Done b"}',
    '{"time":"2024-06-01 10:00:03","lvl":"warning","message":"done\\nat x.Y(Y.java:1)"}',
    '{"service":"orders","message":"done without a time"}',
    '{"timestamp":1717236010000,"severity":"CRITICAL","message":"epoch done"}',
    '{"ts":"2024-06-01T10:00:04Z","level":7,"service":5,"message":{"done":1}}',
    '{"ts":"2024-06-01T10:00:05Z","message":"dup done","message":"second"}',
    '{"ts":"2024-06-01T10:00:06Z","message":"done","exception":"E\\n\\tat a.B(B.java:1)"}',
    '{"a":"done"},{"b":"done"}',
    '["done"]',
    '{"ts":"2024-06-01T10:00:07Z","message":"done" broken',
    '{"ts":"2024-06-01T10:00:08Z","message":"done \udcff byte"}',
    '   {"message":"indented done"}   ',
    '{"message":"form feed done"}\x0c',
    '{"x":' * 40 + '"done"' + "}" * 40,
    '{"message":"NaN done","v":NaN}',
    '{"level":"debug","message":"DONE upper"}',
    '{"message":"no match here"}',
]

_SAME_LAYOUT = [
    '{"ts":"2024-06-01T10:00:09.500Z","service":"orders","level":"WARN","message":"done c"}',
    '{"ts":"2024-06-01T10:00:01.000Z","service":"billing","level":"INFO","message":"done d"}',
    '{"ts":"2024-02-30T10:00:00.000Z","service":"orders","level":"INFO","message":"done e"}',
    '{"ts":1717236010000,"service":"orders","level":"INFO","message":"done epoch"}',
    '{"ts":"2024-06-01T10:00:10Z","service":7,"level":["x"],"message":"done odd"}',
    '{"ts":"2024-06-01T10:00:11+02:00","service":"billing","level":"fatal","message":"done z"}',
    '{"ts":"2024-06-01T10:00:12.000Z","service":null,"level":"Error","message":"done\\nmore"}',
    '{"ts":"2024-06-01T10:00:13.000Z","service":"orders","level":"verbose","message":"done"}',
    '{"ts":"2024-06-01T10:00:14.000Z","service":"orders","level":1,"message":"done one"}',
    '{"ts":null,"service":"orders","level":"INFO","message":"done untimed"}',
]


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


@st.composite
def json_files(draw: st.DrawFn) -> bytes:
    pool = draw(st.sampled_from([_LINES, _SAME_LAYOUT, _SAME_LAYOUT[:3], _LINES + _SAME_LAYOUT]))
    lines = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=30))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return b"".join(_encode(line + ending) for line in lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    content=json_files(),
    term=st.sampled_from(["done", "DONE", "don", '"message"', "e"]),
    limit=st.sampled_from([2, 1000]),
    chunk=st.sampled_from([64, 256, 65536]),
    service=st.sampled_from([None, None, "orders"]),
)
def test_json_lines_parsed_together_agree_with_the_reference(
    content: bytes, term: str, limit: int, chunk: int, service: str | None
) -> None:
    query = LogQuery.from_request(service, term, None, None, limit).unwrap()
    with tempfile.TemporaryDirectory() as name, tiny_reads(chunk):
        folder = Path(name)
        (folder / "app.jsonl").write_bytes(content)
        expected = reference_scan(folder, query)
        backend = FileLogBackend(folder)
        assert backend.query(query, deadline=time.monotonic() + 60).unwrap() == expected


_STAMP = st.one_of(
    st.from_regex(
        r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z", fullmatch=True
    ),
    st.sampled_from(["2024-06-01T10:00:00.000Z", "2024-02-29T23:59:59.999Z"]),
    st.sampled_from(
        ["2023-02-29T00:00:00.000Z", "0999-01-01T00:00:00.000Z", "2024-06-01T10:00:60.000Z"]
    ),
    st.sampled_from(
        ["2024-06-01T10:00:00Z", "2024-06-01T10:00:00.000+00:00", "2024-06-01T24:00:00.000Z"]
    ),
    st.text(max_size=24),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_STAMP, min_size=1, max_size=6))
def test_stamps_said_to_be_in_own_form_normalize_to_themselves(stamps: list[str]) -> None:
    if all_in_own_form(stamps):
        assert [normalize_instant(stamp) for stamp in stamps] == stamps


def test_a_real_stamp_list_is_in_own_form_and_a_false_date_is_not() -> None:
    assert all_in_own_form(["2024-06-01T10:00:00.000Z", "2024-02-29T23:59:59.999Z"])
    assert not all_in_own_form(["2024-06-01T10:00:00.000Z", "2023-02-29T00:00:00.000Z"])
    assert not all_in_own_form(["2024-06-01T10:00:00Z"])
