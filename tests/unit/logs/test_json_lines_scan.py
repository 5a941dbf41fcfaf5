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


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


@st.composite
def json_files(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(st.sampled_from(_LINES), min_size=1, max_size=30))
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
