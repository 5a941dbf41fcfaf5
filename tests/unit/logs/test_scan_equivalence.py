"""The byte-level scan answers every query exactly as the reference matcher does: the same
records in the same order, the same counts, the same window, on files built to break it
(continuations across chunk edges, private-key blocks, lone carriage returns, characters
whose lower case is ASCII, invalid UTF-8, untimed and unparsable records), with tiny chunks
so that every edge case meets a chunk boundary, and with the time index cold and warm."""

from __future__ import annotations

import json
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

from factledger.adapters.logs import file_reader, time_index, window_scan
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
        mock.patch.object(file_reader, "_FIRST_STEP", 3),
        mock.patch.object(time_index, "BLOCK_BYTES", 40),
        mock.patch.object(window_scan, "GRID_BYTES", max(8, chunk // 2)),
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


def _spread_line(kind: int, minute: int) -> str:
    """A line of one of several shapes, at a minute of 2024-06-01 (out of order allowed)."""
    hour, rest = divmod(minute, 60)
    moment = f"2024-06-01T{hour:02d}:{rest:02d}:30"
    shapes = [
        f'{{"ts":"{moment}.000Z","service":"orders","message":"json {minute}"}}',
        f"{moment}Z INFO text {minute}",
        f"{moment.replace('T', ' ')},250 ERROR spaced {minute}",
        f'{{"ts": "{moment}+02:00", "message":"offset {minute}"}}',
        f'{{"timestamp":{1717200000000 + minute * 60000},"message":"epoch {minute}"}}',
        f'{{"t\\u0073":"{moment}Z","message":"escaped key {minute}"}}',
        f'{{"ts":"{moment}Z","message":"broken {minute}"',
        f"continuation-free line without time {minute}",
        "\tat com.acme.Frame.run(Frame.java:1)",
        f"{moment}+01:00 WARN zoned {minute}",
        "-----BEGIN PRIVATE KEY-----",
        f"{moment}Z INFO inside key {minute}",
        "-----END PRIVATE KEY-----",
        f'{{"date":"2024-06-01","message":"date only {minute}"}}',
        "",
    ]
    return shapes[kind % len(shapes)]


@st.composite
def spread_files(draw: st.DrawFn) -> bytes:
    count = draw(st.integers(1, 120))
    minute = draw(st.integers(0, 300))
    parts: list[str] = []
    for _ in range(count):
        minute = max(0, minute + draw(st.sampled_from([0, 1, 1, 2, 5, 30, -3, -200])))
        weights = st.sampled_from([0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14])
        parts.append(
            _spread_line(draw(weights), minute) + draw(st.sampled_from(["\n"] * 9 + ["\r\n", "\r"]))
        )
    return "".join(parts).encode()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    content=spread_files(),
    start=st.integers(0, 600),
    length=st.integers(0, 120),
    open_end=st.sampled_from(["", "start", "end"]),
    service=st.sampled_from([None, None, "orders", "app"]),
    grid=st.sampled_from([40, 200, 1000]),
)
def test_a_window_scan_that_jumps_over_stretches_agrees_with_the_reference(
    content: bytes, start: int, length: int, open_end: str, service: str | None, grid: int
) -> None:
    def instant(minute: int) -> str:
        return f"2024-06-01T{minute // 60:02d}:{minute % 60:02d}:00Z"

    low = None if open_end == "start" else instant(start)
    high = None if open_end == "end" else instant(start + length)
    if low is None and high is None:
        high = instant(start)
    query = LogQuery.from_request(service, None, low, high, 7).unwrap()
    with tempfile.TemporaryDirectory() as name, tiny_reads(64):
        folder = Path(name)
        (folder / "app.log").write_bytes(content)
        with mock.patch.object(window_scan, "GRID_BYTES", grid):
            backend = FileLogBackend(folder)
            expected = reference_scan(folder, query)
            assert _fast(backend, query) == expected
            assert _fast(backend, query) == expected


def _at(minute: int, text: str = "INFO at") -> str:
    return f"2024-06-01T{minute // 60:02d}:{minute % 60:02d}:30Z {text}\n"


_EARLY = "".join(_at(300 + i % 3) for i in range(30))
_LATE = "".join(_at(900 + i % 3) for i in range(30))
WINDOW_CASES: dict[str, str] = {
    "untimed lines after the window inherit its time": (
        _EARLY + _at(605, "ERROR in window") + "no time here\n" * 40 + _at(900) * 20
    ),
    "a zone offset moves a line into the window": (
        _EARLY + "2024-06-01T12:05:30+02:00 ERROR zoned\n" + _EARLY
    ),
    "a zone offset moves a line among later ones into the window": (
        _LATE + "2024-06-01T12:05:30+02:00 ERROR zoned\n" + _LATE
    ),
    "a JSON zone offset moves a record into the window": (
        _EARLY + '{"ts":"2024-06-01T12:05:30+02:00","message":"zoned"}\n' + _EARLY
    ),
    "an epoch number names a time in the window": (
        _EARLY + '{"ts":1717236330000,"message":"epoch"}\n' + _EARLY
    ),
    "an escaped key names a time in the window": (
        _EARLY + '{"t\\u0073":"2024-06-01T10:05:30Z","message":"escaped"}\n' + _EARLY
    ),
    "the first line of the file has a zone offset": (
        "2024-06-01T12:05:30+02:00 ERROR first\n" + _EARLY
    ),
    "a key block holds lines that look like other times": (
        _at(605, "ERROR key -----BEGIN PRIVATE KEY-----")
        + "".join(_at(300) for _ in range(30))
        + "-----END PRIVATE KEY-----\n"
        + _at(606, "ERROR after the key")
        + _EARLY
    ),
}


@pytest.mark.parametrize("name", sorted(WINDOW_CASES))
def test_window_edge_cases_agree_with_the_reference(name: str) -> None:
    query = LogQuery.from_request(None, None, "2024-06-01T10:00:00Z", "2024-06-01T10:10:00Z", 50)
    for grid in (40, 100, 400):
        with tempfile.TemporaryDirectory() as folder, tiny_reads(64):
            (Path(folder) / "app.log").write_text(WINDOW_CASES[name])
            with mock.patch.object(window_scan, "GRID_BYTES", grid):
                expected = reference_scan(Path(folder), query.unwrap())
                assert json.loads(expected)["matched_count"] > 0
                backend = FileLogBackend(Path(folder))
                assert _fast(backend, query.unwrap()) == expected, grid
                assert _fast(backend, query.unwrap()) == expected, (grid, "warm")
