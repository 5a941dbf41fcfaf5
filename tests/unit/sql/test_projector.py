"""The SQL projector: bounded, redacted, typed; and the evidence status it implies."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from attrs import evolve

from factledger.domain.json_types import JsonScalar
from factledger.domain.sql.plan import OutputColumn, QueryPlan
from factledger.domain.sql.projector import (
    SQL_CONTROL_ONLY_KEYS,
    SQL_MODEL_VISIBLE_KEYS,
    SqlProjectionLimits,
    project_sql_result,
    sql_evidence_status,
)
from factledger.domain.sql.raw_result import decode_raw_result, encode_raw_result
from factledger.domain.sql.redaction import REDACTED
from factledger.domain.status import EvidenceStatus


def plan(*columns: tuple[str, bool], row_limit: int = 200) -> QueryPlan:
    return QueryPlan(
        datasource="payments",
        sql="SELECT …",
        tables=("users",),
        columns=tuple(f"users.{name}" for name, _ in columns),
        output_columns=tuple(OutputColumn(name, sensitive) for name, sensitive in columns),
        row_limit=row_limit,
    )


def raw(*columns: tuple[str, bool], rows: list[list[JsonScalar]], row_limit: int = 200) -> str:
    return encode_raw_result(plan(*columns, row_limit=row_limit), rows)


def test_numbers_booleans_and_nulls_keep_their_types() -> None:
    text = raw(("n", False), ("f", False), ("b", False), ("x", False), rows=[[3, 1.5, True, None]])
    result = project_sql_result(text).unwrap()
    assert result.agent_result["rows"] == [[3, 1.5, True, None]]
    assert result.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    assert result.truncated is False


def test_the_agent_result_holds_scope_columns_rows_truncated_and_returned_count() -> None:
    result = project_sql_result(raw(("id", False), rows=[[1], [2]])).unwrap()
    assert result.agent_result == {
        "scope": {
            "datasource": "payments",
            "tables": ["users"],
            "columns": ["users.id"],
            "sql": "SELECT …",
            "dialect": "mysql",
        },
        "columns": ["id"],
        "rows": [[1], [2]],
        "truncated": False,
        "returned_count": 2,
    }
    assert set(result.agent_result) == {*SQL_MODEL_VISIBLE_KEYS, *SQL_CONTROL_ONLY_KEYS}
    assert not set(SQL_MODEL_VISIBLE_KEYS) & set(SQL_CONTROL_ONLY_KEYS)


def test_a_sensitive_column_is_redacted_by_origin_even_under_an_innocent_name() -> None:
    text = raw(("label", True), ("name", False), rows=[["tok_1", "alice"], [None, "bob"]])
    rows = project_sql_result(text).unwrap().agent_result["rows"]
    assert rows == [[REDACTED, "alice"], [REDACTED, "bob"]]


def test_a_null_in_a_sensitive_column_is_redacted_too_so_it_cannot_tell_a_secret_exists() -> None:
    text = raw(("api_token", True), ("note", False), rows=[[None, None], ["tok_2", None]])
    rows = project_sql_result(text).unwrap().agent_result["rows"]
    assert rows == [[REDACTED, None], [REDACTED, None]]


def test_the_scope_carries_the_executed_sql_and_the_bound_instant() -> None:
    bound = evolve(
        plan(("n", False)),
        sql="SELECT COUNT(*) AS `n` FROM `orders` WHERE `created_at` >= "
        "CAST('2026-05-01 09:00:00' AS DATETIME) LIMIT 201",
        now=datetime(2026, 5, 1, 10, 0, tzinfo=UTC),
    )
    scope = project_sql_result(encode_raw_result(bound, [[3]])).unwrap().agent_result["scope"]
    assert isinstance(scope, dict)
    assert scope["sql"] == bound.sql
    assert scope["now"] == "2026-05-01T10:00:00+00:00"
    assert scope["dialect"] == "mysql"


def test_a_number_in_a_sensitive_column_is_redacted_too() -> None:
    rows = project_sql_result(raw(("pin", True), rows=[[1234]])).unwrap().agent_result["rows"]
    assert rows == [[REDACTED]]


@pytest.mark.parametrize(
    "value",
    [
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "-----BEGIN RSA PRIVATE KEY-----",
        "Authorization: Bearer abcdefghijklmnop1234",
        "AKIAIOSFODNN7EXAMPLE",
        "password=hunter2",
        "mysql://app:s3cret@db.internal:3306/payments",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "$2b$12$KIXQJ3mNq8v7Yt2pW9zLuO1abcdefghijklmnopqrstuvwxyz012",
    ],
)
def test_a_secret_looking_value_is_redacted_by_the_detector(value: str) -> None:
    rows = project_sql_result(raw(("note", False), rows=[[value]])).unwrap().agent_result["rows"]
    assert rows == [[REDACTED]]


@pytest.mark.parametrize(
    "value", ["failed", "gateway timeout after 30000 ms", "4f9c2a1e-8d1b-4c55-9a4e-2f7f3b9d1c0a"]
)
def test_ordinary_values_are_not_redacted(value: str) -> None:
    rows = project_sql_result(raw(("note", False), rows=[[value]])).unwrap().agent_result["rows"]
    assert rows == [[value]]


def test_a_string_under_a_secret_sounding_name_is_redacted_but_a_count_is_not() -> None:
    text = raw(("reset_token", False), ("token_count", False), rows=[["abc", 3]])
    rows = project_sql_result(text).unwrap().agent_result["rows"]
    assert rows == [[REDACTED, 3]]


def test_rows_beyond_the_cap_are_cut_and_the_result_says_truncated() -> None:
    text = raw(("id", False), rows=[[n] for n in range(60)])
    result = project_sql_result(text).unwrap()
    assert len(result.agent_result["rows"]) == 50  # type: ignore[arg-type]
    assert result.agent_result["returned_count"] == 60
    assert result.truncated is True
    assert result.agent_result["truncated"] is True


def test_the_extra_row_past_the_plans_limit_only_says_that_more_exist() -> None:
    text = raw(("id", False), rows=[[1], [2], [3]], row_limit=2)
    result = project_sql_result(text).unwrap()
    assert result.agent_result["rows"] == [[1], [2]]
    assert result.agent_result["returned_count"] == 2
    assert result.truncated is True


def test_a_long_cell_is_cut_with_an_ellipsis_and_marked_truncated() -> None:
    result = project_sql_result(raw(("note", False), rows=[["x" * 500]])).unwrap()
    cell = result.agent_result["rows"][0][0]  # type: ignore[index]
    assert cell == "x" * 199 + "…"
    assert result.truncated is True


def test_the_serialized_agent_result_stays_within_its_byte_budget() -> None:
    limits = SqlProjectionLimits(max_rows=1000, max_bytes=2000)
    text = raw(("note", False), rows=[["é" * 150] for _ in range(100)])
    result = project_sql_result(text, limits).unwrap()
    body = json.dumps(result.agent_result, ensure_ascii=False, separators=(",", ":"))
    assert len(body.encode("utf-8")) <= 2000
    assert result.truncated is True
    assert result.agent_result["rows"]


def test_a_first_row_larger_than_the_budget_is_shown_shortened_rather_than_dropped() -> None:
    limits = SqlProjectionLimits(max_bytes=700)
    text = raw(*((f"c{n}", False) for n in range(5)), rows=[["y" * 200] * 5])
    result = project_sql_result(text, limits).unwrap()
    assert result.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    assert result.truncated is True
    body = json.dumps(result.agent_result, ensure_ascii=False, separators=(",", ":"))
    assert len(body.encode("utf-8")) <= 700


def test_no_rows_is_no_evidence() -> None:
    result = project_sql_result(raw(("id", False), rows=[])).unwrap()
    assert result.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert result.agent_result["rows"] == []


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"datasource": "payments"}',
        '{"datasource":"p","sql":"","tables":[],"columns":[],"output_columns":[],'
        '"row_limit":1,"rows":[],"rows":[]}',
        '{"datasource":"p","sql":"","tables":[],"columns":[],'
        '"output_columns":[{"name":"a","sensitive":false}],"row_limit":1,"rows":[[1,2]]}',
        '{"datasource":"p","sql":"","tables":[],"columns":[],'
        '"output_columns":[{"name":"a","sensitive":false}],"row_limit":1,"rows":[[[1]]]}',
        '{"datasource":"p","sql":"","tables":[],"columns":[],'
        '"output_columns":[{"name":"a","sensitive":false}],"row_limit":1,"rows":[[NaN]]}',
    ],
)
def test_a_malformed_raw_result_is_a_projection_failure(text: str) -> None:
    assert project_sql_result(text).failure().reason == "MALFORMED_RAW"


def test_the_raw_document_round_trips() -> None:
    text = raw(("id", False), ("api_token", True), rows=[[1, "t"]])
    decoded = decode_raw_result(text).unwrap()
    assert decoded.output_columns == (OutputColumn("id", False), OutputColumn("api_token", True))
    assert decoded.rows == ((1, "t"),)


def test_the_evidence_status_is_recomputed_from_the_rows() -> None:
    assert sql_evidence_status({"rows": [[1]]}).unwrap() is EvidenceStatus.EVIDENCE_FOUND
    assert sql_evidence_status({"rows": []}).unwrap() is EvidenceStatus.NO_EVIDENCE
    assert sql_evidence_status({"rows": "x"}).failure().reason == "MALFORMED_AGENT_RESULT"
