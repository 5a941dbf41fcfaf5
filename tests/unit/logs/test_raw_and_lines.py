"""The raw format, line parsing, queries and the time sketch."""

from __future__ import annotations

from datetime import UTC, datetime

from returns.result import Failure, Success

from factledger.domain.logs.line_format import assemble_records, parse_line
from factledger.domain.logs.query import MAX_LIMIT, LogQuery, LogQueryError, query_terms
from factledger.domain.logs.raw_format import RawReader
from factledger.domain.logs.time_sketch import TimeSketch
from factledger.domain.logs.timestamps import format_instant, parse_instant
from tests.unit.logs.raw_builders import raw, record


def test_the_raw_reader_streams_records_and_then_checks_the_header() -> None:
    reader = RawReader(raw([record("a"), record("b")]))
    messages = [item["message"] for item in reader.records() if isinstance(item, dict)]
    assert messages == ["a", "b"]
    header = reader.header()
    assert not isinstance(header, str)
    assert header.matched_count == 2


def test_the_raw_reader_accepts_records_before_the_header_members() -> None:
    text = raw([record("a")])
    head, _, records = text.partition(',"records":')
    reordered = '{"records":' + records[:-1] + "," + head[1:] + "}"
    reader = RawReader(reordered)
    assert len(list(reader.records())) == 1
    assert not isinstance(reader.header(), str)


def test_a_duplicate_member_is_refused() -> None:
    text = raw([record("a")])
    reader = RawReader(text[:-1] + ',"matched_count":1}')
    list(reader.records())
    assert reader.header() == "DUPLICATE_KEY"


def test_instants_in_common_forms_parse_to_utc() -> None:
    expected = datetime(2024, 6, 1, 10, 0, 0, 500000, tzinfo=UTC)
    for text in (
        "2024-06-01T10:00:00.5Z",
        "2024-06-01 10:00:00,500",
        "2024-06-01T12:00:00.500+02:00",
        "2024-06-01T10:00:00.500 UTC",
    ):
        assert parse_instant(text) == expected, text
    assert format_instant(expected) == "2024-06-01T10:00:00.500Z"
    assert parse_instant("not a time") is None


def test_a_plain_line_loses_its_time_and_level_but_keeps_its_message() -> None:
    record_line = parse_line("2015-07-29 17:41:44,747 - INFO  [main:Server@1] - started")
    assert record_line.ts == "2015-07-29T17:41:44.747Z"
    assert record_line.level == "INFO"
    assert record_line.message == "[main:Server@1] - started"


def test_a_line_without_time_is_a_message_of_its_own_with_the_previous_time() -> None:
    records = list(
        assemble_records(["2024-06-01T10:00:00Z INFO first", "plain second line", "third"])
    )
    assert [r.message for r in records] == ["first", "plain second line", "third"]
    assert [r.ts for r in records] == ["2024-06-01T10:00:00.000Z"] * 3
    assert [(r.first_line, r.last_line) for r in records] == [(1, 1), (2, 2), (3, 3)]


def test_a_private_key_body_stays_with_the_record_that_opened_it() -> None:
    lines = [
        "2024-06-01T10:00:00Z INFO key -----BEGIN RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEA0",
        "-----END RSA PRIVATE KEY-----",
        "2024-06-01T10:00:01Z INFO next",
    ]
    records = list(assemble_records(lines))
    assert len(records) == 2
    assert records[0].stack == (lines[1], lines[2])


def test_a_query_refuses_bad_input_with_a_safe_reason() -> None:
    assert LogQuery.from_request(None, None, "x", None) == Failure(LogQueryError("BAD_TIMESTAMP"))
    assert LogQuery.from_request(
        None, None, "2024-06-02T00:00:00Z", "2024-06-01T00:00:00Z"
    ) == Failure(LogQueryError("EMPTY_WINDOW"))
    assert LogQuery.from_request(None, None, None, None, MAX_LIMIT + 1) == Failure(
        LogQueryError("BAD_LIMIT")
    )
    assert isinstance(LogQuery.from_request(" svc ", "", None, None), Success)


def test_text_query_terms_keep_quoted_phrases_whole() -> None:
    assert query_terms('Timeout "connection refused" DB') == (
        "timeout",
        "connection refused",
        "db",
    )


def test_the_time_sketch_keeps_records_from_the_whole_range_in_bounded_memory() -> None:
    sketch: TimeSketch[int] = TimeSketch(max_slots=16)
    for second in range(100_000):
        sketch.offer(float(second), 0, second, "tick", second)
    entries = sketch.entries()
    assert len(entries) <= 32
    assert entries[0][3] < 10_000
    assert entries[-1][3] > 90_000


def test_a_stretch_dominated_by_one_kind_still_offers_the_other_kinds_seen_in_it() -> None:
    sketch: TimeSketch[str] = TimeSketch(max_slots=4, kinds_per_slot=3)
    for second in range(10_000):
        kind = "rare" if second in (5_000, 5_001) else "tick"
        sketch.offer(float(second), 0, second, kind, f"{kind}-{second}")
    items = [entry[3] for entry in sketch.entries()]
    assert "rare-5000" in items
    assert "rare-5001" not in items
    assert len(items) <= 4 * 3
