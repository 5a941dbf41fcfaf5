"""The logs projector: scope, evidence status, redaction before mining, budget, failures."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from returns.result import Failure, Success

from factledger.domain.json_types import JsonObject
from factledger.domain.logs.agent_result import (
    CONTROL_ONLY_KEYS,
    MODEL_VISIBLE_KEYS,
    recompute_evidence_status,
)
from factledger.domain.logs.projector import LogProjectionSettings, project_logs
from factledger.domain.logs.query import LogQuery
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import ProjectionFailure
from tests.unit.logs.raw_builders import OPEN, arr, obj, raw, record

WINDOWED = LogQuery(
    service="orders",
    text="timeout",
    start=datetime(2024, 6, 1, 9, tzinfo=UTC),
    end=datetime(2024, 6, 1, 11, tzinfo=UTC),
    limit=100,
)


def _letters(number: int) -> str:
    word = ""
    while True:
        number, digit = divmod(number, 26)
        word += chr(ord("a") + digit)
        if number == 0:
            return word + "q"


def _size(value: object) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def test_zero_matched_records_is_no_evidence_with_the_searched_scope() -> None:
    from factledger.domain.logs.raw_format import RawHeader, encode_raw, query_header

    header = RawHeader(
        query=query_header(WINDOWED),
        window_start="2024-06-01T09:00:00.000Z",
        window_end="2024-06-01T11:00:00.000Z",
        matched_count=0,
        returned_count=0,
        limit_reached=False,
        level_counts={},
    )
    result = project_logs(encode_raw(header, []), WINDOWED).unwrap()
    assert result.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert result.agent_result["scope"] == {
        "service": "orders",
        "query": "timeout",
        "start": "2024-06-01T09:00:00.000Z",
        "end": "2024-06-01T11:00:00.000Z",
        "skipped": {},
    }
    assert result.agent_result["matched_count"] == 0
    assert result.agent_result["patterns"] == []
    assert result.agent_result["truncated"] is False


def test_matched_records_are_evidence_and_counted_per_template() -> None:
    records = [record(f"request {i} took {i * 3}ms") for i in range(5)]
    records.append(record("connection refused by upstream", level="ERROR"))
    result = project_logs(raw(records), OPEN).unwrap()
    assert result.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    patterns = result.agent_result["patterns"]
    assert isinstance(patterns, list)
    by_template = {p["template"]: p for p in patterns if isinstance(p, dict)}
    assert by_template["request <*> took <*>"]["count"] == 5
    assert by_template["connection refused by upstream"]["levels"] == {"ERROR": 1}
    assert isinstance(patterns[0], dict)
    assert patterns[0]["template"] == "connection refused by upstream"


def test_the_agent_result_has_exactly_the_named_model_and_control_keys() -> None:
    result = project_logs(raw([record("hello")]), OPEN).unwrap()
    assert set(result.agent_result) == set(MODEL_VISIBLE_KEYS) | set(CONTROL_ONLY_KEYS)
    assert not set(MODEL_VISIBLE_KEYS) & set(CONTROL_ONLY_KEYS)
    assert "returned_count" in CONTROL_ONLY_KEYS


def test_the_recomputed_evidence_status_matches_the_declared_one() -> None:
    for records in ([], [record("hello")]):
        result = project_logs(raw(records), OPEN).unwrap()
        assert recompute_evidence_status(result.agent_result) == Success(result.evidence_status)


def test_an_inconsistent_agent_result_is_rejected_by_the_recomputation() -> None:
    result = project_logs(raw([record("hello")]), OPEN).unwrap()
    forged = dict(result.agent_result)
    forged["patterns"] = []
    assert isinstance(recompute_evidence_status(forged), Failure)
    forged = dict(result.agent_result)
    forged["extra"] = 1
    assert recompute_evidence_status(forged) == Failure(ProjectionFailure("UNEXPECTED_KEYS"))


def test_secrets_never_reach_templates_examples_fields_or_stacks() -> None:
    secret = "hunter2hunter2X9"
    records = [
        record(
            f"login failed password={secret} from 10.1.2.3",
            level="ERROR",
            stack=[
                "java.lang.IllegalStateException: token=" + secret,
                "\tat com.acme.A.b(A.java:1)",
            ],
            fields={"api_key": secret, "note": f"Bearer {secret}"},
        )
        for _ in range(3)
    ]
    result = project_logs(raw(records), OPEN).unwrap()
    text = json.dumps(result.agent_result)
    assert secret not in text
    assert "10.1.2.3" not in text
    assert "password=<*>" in text or "password=<SECRET>" in text


def test_a_stack_trace_is_folded_to_its_exception_cause_and_first_frames() -> None:
    stack = [
        "java.net.SocketTimeoutException: Read timed out",
        "\tat com.acme.pay.Client.charge(Client.java:42)",
        *[f"\tat org.springframework.X{i}.y(X.java:{i})" for i in range(30)],
        "Caused by: java.io.IOException: reset",
        "\t... 12 more",
    ]
    result = project_logs(raw([record("payment failed", level="ERROR", stack=stack)]), OPEN)
    agent_result = result.unwrap().agent_result
    example = obj(arr(obj(arr(agent_result["patterns"])[0])["examples"])[0])
    assert example["stack"] == {
        "exception": "java.net.SocketTimeoutException",
        "message": "Read timed out",
        "root_cause": "java.io.IOException: reset",
        "frames": ["com.acme.pay.Client.charge(Client.java:42)"],
        "dropped_frames": 42,
    }
    assert "STACK_FRAMES_DROPPED" in agent_result["truncation_reasons"]  # type: ignore[operator]


def test_the_observation_stays_within_its_byte_budget() -> None:
    records = [
        record(f"{_letters(i % 400)} {_letters(i % 400 + 1000)} failed " + "x" * 200, level="ERROR")
        for i in range(4000)
    ]
    settings = LogProjectionSettings(budget_bytes=8_000)
    result = project_logs(raw(records), OPEN, settings).unwrap()
    assert _size(result.agent_result) <= 8_000
    assert result.truncated
    assert "PATTERNS_OMITTED" in result.agent_result["truncation_reasons"]  # type: ignore[operator]
    assert result.agent_result["lines_dropped"] > 0  # type: ignore[operator]


def test_a_backend_limit_is_reported_as_truncation_with_the_exact_matched_count() -> None:
    result = project_logs(raw([record("hello")], matched=50), OPEN).unwrap()
    assert result.agent_result["matched_count"] == 50
    assert result.agent_result["returned_count"] == 1
    assert result.agent_result["lines_dropped"] == 49
    assert result.agent_result["truncation_reasons"] == ["BACKEND_LIMIT"]


def test_a_raw_answering_another_query_is_refused() -> None:
    outcome = project_logs(raw([record("hello")]), WINDOWED)
    assert outcome == Failure(ProjectionFailure("SCOPE_MISMATCH"))


def test_malformed_raw_texts_are_refused_with_a_stable_reason() -> None:
    good = raw([record("hello")])
    cases = {
        "not json": "MALFORMED_RAW",
        good + "x": "TRAILING_DATA",
        good.replace('"factledger.logs/1"', '"other/9"'): "UNKNOWN_FORMAT",
        good.replace('"returned_count":1', '"returned_count":2'): "INCONSISTENT_COUNTS",
        good.replace('"records":[', '"records":[7,'): "MALFORMED_RECORD",
    }
    for text, reason in cases.items():
        assert project_logs(text, OPEN) == Failure(ProjectionFailure(reason)), reason


def test_a_record_with_an_unreadable_timestamp_is_refused() -> None:
    text = raw([record("hello", ts="yesterday")])
    assert project_logs(text, OPEN) == Failure(ProjectionFailure("MALFORMED_RECORD"))


def test_an_observation_does_not_depend_on_what_was_projected_before_it() -> None:
    records = [record(f"job {i} finished in {i}s", level="INFO") for i in range(50)]
    records.append(record("login failed password=hunter2hunter2 host=db-7.internal"))
    text = raw(records)
    first = project_logs(text, OPEN).unwrap()
    other = [
        record(f"host=db-{i}.internal job {i} password=pw{i}x{i}", level="ERROR")
        for i in range(300)
    ]
    project_logs(raw(other), OPEN).unwrap()
    assert project_logs(text, OPEN).unwrap() == first


def test_the_order_of_the_raw_members_does_not_change_the_observation() -> None:
    records = [record(f"job {i} finished in {i}s", level="INFO") for i in range(20)]
    text = raw(records)
    head, _, body = text.partition(',"records":')
    reordered = '{"records":' + body[:-1] + "," + head[1:] + "}"
    assert project_logs(reordered, OPEN).unwrap() == project_logs(text, OPEN).unwrap()


def _spread(message: str, count: int, level: str = "INFO") -> list[JsonObject]:
    return [
        record(
            message.format(i=i),
            ts=f"2024-06-01T10:{i * 60 // count:02d}:{i % 60:02d}.000Z",
            level=level,
        )
        for i in range(count)
    ]


def test_a_dominant_message_is_shown_once_among_the_events_and_the_others_take_its_place() -> None:
    records = _spread("health check ok", 3000)
    records += [
        record(f"cache {name} warmed", ts=f"2024-06-01T10:{minute:02d}:30.000Z")
        for minute, name in ((5, "alpha"), (25, "beta"), (45, "gamma"))
    ]
    records.sort(key=lambda item: str(item["ts"]))
    agent_result = project_logs(raw(records), OPEN).unwrap().agent_result
    messages = [obj(event)["message"] for event in arr(agent_result["events"])]
    assert messages.count("health check ok") == 1
    assert {"cache alpha warmed", "cache beta warmed", "cache gamma warmed"} <= set(messages)


def test_no_two_events_say_the_same_thing_even_when_they_differ_only_in_masked_values() -> None:
    records = _spread("connection to 10.0.{i}.1 refused", 2000, level="ERROR")
    records += _spread("retrying in {i} ms", 2000, level="WARN")
    records.sort(key=lambda item: str(item["ts"]))
    agent_result = project_logs(raw(records), OPEN).unwrap().agent_result
    messages = [str(obj(event)["message"]) for event in arr(agent_result["events"])]
    assert len(messages) == len(set(messages))
    assert messages.count("connection to <IP> refused") == 1
    assert len([m for m in messages if m.startswith("retrying in")]) >= 2


def test_skipped_parts_of_the_scope_make_even_a_negative_result_incomplete() -> None:
    from factledger.domain.logs.raw_format import RawHeader, encode_raw, query_header

    header = RawHeader(
        query=query_header(WINDOWED),
        window_start="2024-06-01T09:00:00.000Z",
        window_end="2024-06-01T11:00:00.000Z",
        matched_count=0,
        returned_count=0,
        limit_reached=False,
        level_counts={},
        skipped={"binary_files": 1, "hidden_entries": 2},
    )
    result = project_logs(encode_raw(header, []), WINDOWED).unwrap()
    assert result.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert result.truncated
    scope = obj(result.agent_result["scope"])
    assert scope["skipped"] == {"hidden_entries": 2, "binary_files": 1}
    assert result.agent_result["truncation_reasons"] == ["SCOPE_NOT_FULLY_READ"]
    unmarked = dict(result.agent_result)
    unmarked["truncated"] = False
    unmarked["truncation_reasons"] = []
    assert recompute_evidence_status(unmarked) == Failure(
        ProjectionFailure("INCOMPLETE_SCOPE_UNMARKED")
    )
    claimed = dict(project_logs(raw([]), OPEN).unwrap().agent_result)
    claimed["truncated"] = True
    claimed["truncation_reasons"] = ["SCOPE_NOT_FULLY_READ"]
    assert recompute_evidence_status(claimed) == Failure(
        ProjectionFailure("INCOMPLETE_SCOPE_UNMARKED")
    )


def test_a_raw_naming_an_unknown_kind_of_skipped_part_is_refused() -> None:
    text = raw([record("hello")]).replace('"skipped":{}', '"skipped":{"secret=abc":1}')
    assert project_logs(text, OPEN) == Failure(ProjectionFailure("MALFORMED_RAW"))
    older = raw([record("hello")]).replace(',"skipped":{}', "")
    assert project_logs(older, OPEN).unwrap().agent_result["truncated"] is False


def test_field_names_are_redacted_and_unknown_level_names_are_not_shown_as_written() -> None:
    from factledger.domain.logs.raw_format import RawHeader, encode_raw, query_header

    item = record("hello", fields={"10.9.8.7": "peer", "user": "bob@example.com"})
    header = RawHeader(
        query=query_header(OPEN),
        window_start=None,
        window_end=None,
        matched_count=2,
        returned_count=1,
        limit_reached=True,
        level_counts={"INFO": 1, "token=abc123secret": 1},
    )
    agent_result = project_logs(encode_raw(header, [item]), OPEN).unwrap().agent_result
    text = json.dumps(agent_result)
    assert "10.9.8.7" not in text
    assert "bob@example.com" not in text
    assert "abc123secret" not in text
    assert agent_result["level_counts"] == {"INFO": 1, "UNKNOWN": 1}
