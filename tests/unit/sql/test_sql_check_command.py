"""``factledger sql check``: policies tested offline, one JSON verdict per input line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from factledger.adapters.cli.main import main
from tests.unit.sql.corpus import SQL_DATA


def _run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str, *args: str
) -> tuple[int, list[object], str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["sql", "check", *args])
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


def test_each_input_line_gets_a_verdict_with_reason_and_regenerated_sql(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = (
        '{"sql": "select id from ORDERS limit 5"}\n'
        '{"sql": "SELECT * FROM orders"}\n'
        "\n"
        '{"sql": "SELECT id FROM orders; DROP TABLE orders"}\n'
    )
    config = str(SQL_DATA / "policy.toml")
    code, lines, _ = _run(
        monkeypatch, capsys, stdin, "--config", config, "--datasource", "payments"
    )
    assert code == 0
    assert lines == [
        {"verdict": "ACCEPT", "reason": None, "sql": "SELECT `id` FROM `orders` LIMIT 6"},
        {"verdict": "REJECT", "reason": "WILDCARD", "sql": None},
        {"verdict": "REJECT", "reason": "MULTI_STATEMENT", "sql": None},
    ]


@pytest.mark.parametrize("line", ["not json", "[]", '{"sql": 1}', '{"sql": "x", "more": 1}'])
def test_a_malformed_input_line_is_rejected_and_the_rest_still_answered(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], line: str
) -> None:
    stdin = line + '\n{"sql": "SELECT id FROM orders"}\n'
    config = str(SQL_DATA / "policy.toml")
    code, lines, _ = _run(
        monkeypatch, capsys, stdin, "--config", config, "--datasource", "payments"
    )
    assert code == 0
    assert lines[0] == {"verdict": "REJECT", "reason": "MALFORMED_INPUT", "sql": None}
    assert lines[1]["verdict"] == "ACCEPT"  # type: ignore[index]


def test_an_unknown_datasource_or_a_bad_config_stops_with_a_message_naming_the_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = str(SQL_DATA / "policy.toml")
    code, lines, err = _run(monkeypatch, capsys, "", "--config", config, "--datasource", "x")
    assert (code, lines) == (2, [])
    assert "no datasource named 'x'" in err

    bad = tmp_path / "bad.toml"
    bad.write_text('[[sql.datasources]]\nname = "p"\nurl = "oracle://x"\n', encoding="utf-8")
    code, lines, err = _run(monkeypatch, capsys, "", "--config", str(bad), "--datasource", "p")
    assert (code, lines) == (2, [])
    assert "sql.datasources.0.url:" in err
    assert "sql.datasources.0.tables: Field required" in err


def test_now_is_bound_to_the_given_instant_and_comments_are_gone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = '{"sql": "SELECT id FROM orders WHERE created_at > NOW() - INTERVAL 1 HOUR -- x"}\n'
    config = str(SQL_DATA / "policy.toml")
    code, lines, _ = _run(
        monkeypatch, capsys, stdin, "--config", config, "--datasource", "payments",
        "--now", "2024-05-01T11:00:00+00:00",
    )  # fmt: skip
    assert code == 0
    assert lines == [
        {
            "verdict": "ACCEPT",
            "reason": None,
            "sql": "SELECT `id` FROM `orders` WHERE `created_at` > "
            "CAST('2024-05-01 10:00:00' AS DATETIME) LIMIT 201",
        }
    ]


def test_a_postgresql_datasource_is_checked_in_postgresql_syntax(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "pg.toml"
    config.write_text(
        "[[sql.datasources]]\n"
        'name = "pg"\n'
        'url = "postgresql+psycopg://factledger_ro@127.0.0.1:5432/payments"\n'
        "[sql.datasources.tables.orders]\n"
        'columns = ["id", "status", "created_at"]\n',
        encoding="utf-8",
    )
    stdin = (
        '{"sql": "SELECT status, count(*) FILTER (WHERE created_at > now() - interval '
        "'1 day') AS n FROM orders GROUP BY 1\"}\n"
        '{"sql": "SELECT pg_sleep(10)"}\n'
        '{"sql": "SELECT relname FROM pg_class"}\n'
    )
    code, lines, _ = _run(
        monkeypatch, capsys, stdin, "--config", str(config), "--datasource", "pg",
        "--now", "2024-05-01T11:00:00+00:00",
    )  # fmt: skip
    assert code == 0
    assert lines[0] == {
        "verdict": "ACCEPT",
        "reason": None,
        "sql": 'SELECT "status", COUNT(*) FILTER(WHERE "created_at" > '
        'CAST(\'2024-04-30 11:00:00+00:00\' AS TIMESTAMPTZ)) AS "n" FROM "orders" '
        "GROUP BY 1 LIMIT 201",
    }
    assert lines[1:] == [
        {"verdict": "REJECT", "reason": "FORBIDDEN_FUNCTION", "sql": None},
        {"verdict": "REJECT", "reason": "METADATA_ACCESS", "sql": None},
    ]


def test_an_instant_without_an_offset_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = str(SQL_DATA / "policy.toml")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as exited:
        main(
            ["sql", "check", "--config", config, "--datasource", "payments", "--now", "2024-05-01"]
        )
    assert exited.value.code == 2
    assert "UTC offset" in capsys.readouterr().err
