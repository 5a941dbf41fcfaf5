"""The byte-level scan answers every query exactly as the reference matcher does: the same
records in the same order, the same counts, the same window, on files built to break it
(continuations across chunk edges, private-key blocks, lone carriage returns, characters
whose lower case is ASCII, invalid UTF-8, untimed and unparsable records), with tiny chunks
so that every edge case meets a chunk boundary, and with the time index cold and warm."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factledger.adapters.logs import file_reader, time_index
from factledger.adapters.logs.file_backend import FileLogBackend
from factledger.domain.logs.line_format import assemble_records
from factledger.domain.logs.query import LogQuery
from factledger.domain.logs.timestamps import format_instant, normalize_instant, parse_instant
from tests.unit.logs.scan_oracle import reference_records, reference_scan

LINES = [
    '{"ts":"2024-06-01T10:00:01.000Z","service":"orders","level":"ERROR","message":"Timeout a"}',
    '{"ts":"2024-06-01T10:00:05Z","service":"billing","level":"info","msg":"paid 504 ok"}',
    '{"timestamp":1717236010000,"service":"orders","message":"epoch timeout"}',
    '{"service":"orders","message":"no time here Timeout"}',
    '{"ts":"2024-06-01T10:00:09.000Z","message":"multi\\nline timeout"}',
    '{"ts": broken json timeout',
    '{"ts":"2024-13-45T10:00:00Z","message":"bad date timeout"}',
    "  {indented json-looking timeout}",
    '  {"ts":"2024-06-01T10:00:00.500Z","message":"indented json timeout"}',
    "2024-06-01T10:00:02.000Z INFO order 1 placed",
    "2024-06-01 10:00:03,500 ERROR payment timeout for order 2",
    "2024-06-01T10:00:04Z [WARN] slow query took 1200 ms",
    "2024-06-01T10:00:07+02:00 ERROR zoned TIMEOUT",
    "a line without any time but timeout",
    "java.lang.IllegalStateException: boom timeout",
    "\tat com.acme.Pay.charge(Pay.java:10)",
    "Caused by: java.io.IOException: reset",
    "\t... 4 more",
    "Traceback (most recent call last):",
    '  File "app.py", line 3, in main',
    "ValueError: bad value",
    "-----BEGIN RSA PRIVATE KEY-----",
    "MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu",
    "2024-06-01T10:00:06Z INFO inside a key block timeout",
    "-----END RSA PRIVATE KEY-----",
    "",
    "   ",
    "2024-06-01T10:00:08Z INFO \u212aelvin reading timeout",
    "2024-06-01T10:00:08Z INFO \u0130stanbul office",
    "2024-06-01T10:00:08Z INFO \u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3 timeout",
    "2024-06-01T10:00:08Z INFO caf\u00e9 CAF\u00c9 timeout",
    "2024-06-01T10:00:10Z INFO invalid \udcff bytes timeout",
    "\u0661\u0669\u0669\u0669-01-01T00:00:00Z arabic digits",
]
TERMS = [
    "timeout",
    "TIMEOUT",
    "504",
    "k",
    "kelvin",
    "i\u0307",
    "istanbul",
    "\u03c3\u03af\u03c3\u03c5\u03c6\u03bf\u03c2",
    "\u03c3",
    "caf\u00e9",
    '"payment timeout"',
    '"ts"',
    "{",
    "at",
    "\\n",
    "without",
    "\ufffd",
    '"line\ntimeout"',
]
ENDINGS = ["\n", "\r\n", "\r"]
INSTANTS = [None, None, None, "2024-06-01T10:00:00Z", "2024-06-01T10:00:03.500Z"]
INSTANTS += ["2024-06-01T10:00:06Z", "2024-06-01T10:00:08Z", "2024-06-01T10:30:00Z"]
INSTANTS += ["2024-06-01T12:00:00Z"]
SERVICES = [None, None, None, None, "orders", "billing", "x", "app"]


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


@st.composite
def log_files(draw: st.DrawFn) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for name in draw(
        st.lists(
            st.sampled_from(["orders.log", "billing.jsonl", "x/app.log"]),
            min_size=1,
            max_size=3,
            unique=True,
        )
    ):
        count = draw(st.integers(0, 14))
        lf_only = draw(st.booleans())
        parts: list[bytes] = []
        for _ in range(count):
            line = draw(st.sampled_from(LINES))
            ending = "\n" if lf_only else draw(st.sampled_from(ENDINGS))
            parts.append(_encode(line + ending))
        trim_last = draw(st.booleans())
        if parts and trim_last:
            parts[-1] = parts[-1].rstrip(b"\r\n")
        files[name] = b"".join(parts)
    return files


@st.composite
def queries(draw: st.DrawFn) -> LogQuery:
    terms = draw(st.lists(st.sampled_from(TERMS), max_size=2))
    start = draw(st.sampled_from(INSTANTS))
    end = draw(st.sampled_from(INSTANTS))
    if start is not None and end is not None and end < start:
        start, end = end, start
    built = LogQuery.from_request(
        draw(st.sampled_from(SERVICES)),
        " ".join(terms) or None,
        start,
        end,
        draw(st.sampled_from([3, 1000])),
    )
    query: LogQuery = built.unwrap()
    return query


@contextmanager
def tiny_reads(chunk: int) -> Iterator[None]:
    with (
        mock.patch.object(file_reader, "CHUNK_BYTES", chunk),
        mock.patch.object(file_reader, "_STEP", 7),
        mock.patch.object(time_index, "BLOCK_BYTES", 40),
    ):
        yield


def _write(folder: Path, files: dict[str, bytes]) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)


def _fast(backend: FileLogBackend, query: LogQuery) -> str:
    return backend.query(query, deadline=time.monotonic() + 60).unwrap()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=log_files(), first=queries(), second=queries(), chunk=st.sampled_from([16, 50, 4096]))
def test_the_fast_scan_agrees_with_the_reference_matcher(
    files: dict[str, bytes], first: LogQuery, second: LogQuery, chunk: int
) -> None:
    with tempfile.TemporaryDirectory() as name, tiny_reads(chunk):
        folder = Path(name)
        _write(folder, files)
        backend = FileLogBackend(folder)
        everything = LogQuery(service=None, text=None, start=None, end=None, limit=5)
        for query in (first, everything, second, first):
            assert _fast(backend, query) == reference_scan(folder, query), query


@settings(max_examples=150, deadline=None)
@given(files=log_files(), query=queries())
def test_a_file_that_grew_keeps_answering_like_the_reference(
    files: dict[str, bytes], query: LogQuery
) -> None:
    with tempfile.TemporaryDirectory() as name, tiny_reads(50):
        folder = Path(name)
        _write(folder, files)
        backend = FileLogBackend(folder)
        everything = LogQuery(service=None, text=None, start=None, end=None, limit=5)
        _fast(backend, everything)
        for path in folder.rglob("*"):
            if path.is_file():
                with path.open("ab") as handle:
                    handle.write(b"\tat more.Frames(X.java:1)\n")
                    handle.write(b"2024-06-01T11:00:00Z ERROR appended later timeout\n")
        assert _fast(backend, query) == reference_scan(folder, query)
        assert _fast(backend, everything) == reference_scan(folder, everything)
        assert _fast(backend, query) == reference_scan(folder, query)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.sampled_from(LINES), max_size=30))
def test_the_record_assembler_is_the_reference_one(lines: list[str]) -> None:
    text = [line + "\n" for line in lines]
    assert list(assemble_records(text)) == list(reference_records(text))
    assert list(assemble_records(text, inherit_time=False)) == list(
        reference_records(text, inherit_time=False)
    )


@settings(max_examples=500, deadline=None)
@given(
    moment=st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)),
    form=st.sampled_from(["%Y-%m-%dT%H:%M:%S.{ms}Z", "%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%d %H:%M:%S"]),
    noise=st.sampled_from(["", "x", "Z", "0", " "]),
)
def test_the_quick_instant_form_is_the_parsed_one(moment: datetime, form: str, noise: str) -> None:
    text = moment.strftime(form).replace("{ms}", f"{moment.microsecond // 1000:03d}") + noise
    parsed = parse_instant(text)
    assert normalize_instant(text) == (None if parsed is None else format_instant(parsed))
    moment = moment.replace(tzinfo=UTC)
    assert normalize_instant(format_instant(moment)) == format_instant(moment)


EDGE_CASES: dict[str, tuple[bytes, str | None, str | None]] = {
    "kelvin sign lower-cases to k": (
        _encode("2024-06-01T10:00:08Z INFO \u212aelvin reading\n"),
        "kelvin",
        None,
    ),
    "dotted capital I lower-cases to i and a dot": (
        _encode("2024-06-01T10:00:08Z INFO \u0130stanbul office\n"),
        "i\u0307stanbul",
        None,
    ),
    "a hit inside a private-key block belongs to the record before it": (
        b"2024-06-01T10:00:00Z INFO key follows -----BEGIN PRIVATE KEY-----\n"
        b"2024-06-01T10:00:01Z ERROR timeout inside the block\n"
        b"-----END PRIVATE KEY-----\n2024-06-01T10:00:02Z ERROR timeout after\n",
        "timeout",
        None,
    ),
    "a lone carriage return splits a line": (
        b"2024-06-01T10:00:00Z INFO first\rjava.lang.Error: timeout\r\n\tat a.B(B.java:1)\n",
        "timeout",
        None,
    ),
    "only carriage returns": (
        b"2024-06-01T10:00:00Z INFO a timeout\r2024-06-01T10:00:01Z INFO b timeout\r",
        "timeout",
        None,
    ),
    "an indented first line with a time is inherited from": (
        b'  {"ts":"2024-06-01T10:00:00.500Z","message":"first"}\nno time here\n',
        "here",
        None,
    ),
    "continuation lines across many chunks": (
        b"2024-06-01T10:00:00Z ERROR failed\n"
        + b"".join(b"\tat frame.N%d(X.java:%d)\n" % (i, i) for i in range(40))
        + b"Caused by: java.io.IOException: timeout\n2024-06-01T10:00:01Z INFO next\n",
        "timeout",
        None,
    ),
    "a line longer than a chunk": (
        b"2024-06-01T10:00:00Z INFO " + b"x" * 300 + b" timeout " + b"y" * 300 + b"\n",
        "timeout",
        None,
    ),
    "no line break at the end": (b"2024-06-01T10:00:00Z INFO timeout", "timeout", None),
    "untimed records under a window are counted": (
        b"no time timeout\n2024-06-01T10:00:00Z INFO timed timeout\n",
        "timeout",
        "window",
    ),
    "unparsable JSON kept out by the service filter is counted": (
        b'{"ts":"2024-06-01T10:00:00Z","service":"billing","message":"timeout"\n',
        "timeout",
        "billing",
    ),
}


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_edge_cases_agree_with_the_reference_at_every_chunk_size(name: str) -> None:
    content, text, extra = EDGE_CASES[name]
    start, end = (
        ("2024-06-01T09:00:00Z", "2024-06-01T11:00:00Z") if extra == "window" else (None, None)
    )
    service = extra if extra not in (None, "window") else None
    query = LogQuery.from_request(service, text, start, end, 1000).unwrap()
    for chunk in (8, 16, 64, 4096):
        with tempfile.TemporaryDirectory() as folder, tiny_reads(chunk):
            (Path(folder) / "orders.log").write_bytes(content)
            backend = FileLogBackend(Path(folder))
            expected = reference_scan(Path(folder), query)
            assert _fast(backend, query) == expected, chunk
            everything = LogQuery(service=service, text=None, start=None, end=None)
            assert _fast(backend, everything) == reference_scan(Path(folder), everything)
            assert _fast(backend, query) == expected, (chunk, "warm")
