"""The [sql] settings section: exact allowlists, refused with a message naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from factledger.adapters.config.sql import SqlSettings, describe_errors, load_sql_settings
from factledger.adapters.sql.grants import grant_statements
from factledger.adapters.sql.policy import policy_from_settings
from factledger.domain.sql.policy import TablePolicy
from tests.unit.sql.corpus import SQL_DATA

ISSUE_EXAMPLE = """
[[sql.datasources]]
name = "payments"
url = "mysql+pymysql://factledger_ro@127.0.0.1:3306/payments"
[sql.datasources.tables.orders]
columns = ["id", "status", "amount", "created_at", "user_id"]
[sql.datasources.tables.users]
columns = ["id", "name", "email", "password_hash", "api_token"]
sensitive = ["password_hash", "api_token"]
"""


def _errors(section: object) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        SqlSettings.model_validate(section)
    return describe_errors(caught.value)


def _datasource(**overrides: object) -> dict[str, object]:
    entry: dict[str, object] = {
        "name": "payments",
        "url": "mysql+pymysql://ro:secret-password@db:3306/payments",
        "tables": {"orders": {"columns": ["id", "status"]}},
    }
    entry.update(overrides)
    return entry


def test_the_documented_example_loads_into_a_policy(tmp_path: Path) -> None:
    path = tmp_path / "factledger.toml"
    path.write_text(ISSUE_EXAMPLE, encoding="utf-8")
    settings = load_sql_settings(path).unwrap()
    policy = policy_from_settings(settings.datasources[0])
    assert policy.datasource == "payments"
    assert policy.dialect == "mysql"
    assert policy.schema == "payments"
    assert policy.table("USERS") == TablePolicy(
        "users",
        ("id", "name", "email", "password_hash", "api_token"),
        frozenset({"password_hash", "api_token"}),
    )


def test_a_file_without_an_sql_section_has_no_datasource(tmp_path: Path) -> None:
    path = tmp_path / "factledger.toml"
    path.write_text("[vault]\nttl_seconds = 10\n", encoding="utf-8")
    assert load_sql_settings(path).unwrap().datasources == []


def test_a_sensitive_column_must_be_listed() -> None:
    tables = {"users": {"columns": ["id"], "sensitive": ["api_token"]}}
    errors = _errors({"datasources": [_datasource(tables=tables)]})
    assert errors == [
        "sql.datasources.0.tables.users: Value error, "
        "sensitive: column 'api_token' is not in columns"
    ]


def test_an_unknown_key_is_refused_by_name() -> None:
    errors = _errors({"datasources": [_datasource(password="x")]})
    assert errors == ["sql.datasources.0.password: Extra inputs are not permitted"]


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("postgresql://db/payments", "must start with one of"),
        ("mysql://ro@db/payments", "must start with one of"),
        ("mysql+pymysql://ro:pw@db:3306", "must name its database"),
        ("sqlite:///", "must name its file"),
    ],
)
def test_a_bad_url_is_refused_without_echoing_it(url: str, message: str) -> None:
    errors = _errors({"datasources": [_datasource(url=url)]})
    assert len(errors) == 1
    assert errors[0].startswith("sql.datasources.0.url: ")
    assert message in errors[0]
    assert url not in errors[0]


def test_names_must_be_unique_and_plain() -> None:
    twice = {"datasources": [_datasource(), _datasource()]}
    assert "used twice" in _errors(twice)[0]
    assert _errors({"datasources": [_datasource(name="Pay ments")]})[0].startswith(
        "sql.datasources.0.name: "
    )
    bad_column = {"orders": {"columns": ["id", "st`atus"]}}
    assert "ASCII name" in _errors({"datasources": [_datasource(tables=bad_column)]})[0]
    twice_column = {"orders": {"columns": ["id", "ID"]}}
    assert "listed twice" in _errors({"datasources": [_datasource(tables=twice_column)]})[0]
    twice_table = {"orders": {"columns": ["id"]}, "ORDERS": {"columns": ["id"]}}
    assert (
        "table 'ORDERS' is listed twice"
        in _errors({"datasources": [_datasource(tables=twice_table)]})[0]
    )


def test_types_are_not_coerced() -> None:
    errors = _errors({"datasources": [_datasource(tables={"orders": {"columns": "id"}})]})
    assert errors[0].startswith("sql.datasources.0.tables.orders.columns: ")


def test_an_unreadable_or_invalid_file_is_reported(tmp_path: Path) -> None:
    assert load_sql_settings(tmp_path / "missing.toml").failure()[0].endswith("cannot be read")
    broken = tmp_path / "broken.toml"
    broken.write_text("[[sql.datasources]\n", encoding="utf-8")
    assert "not valid TOML" in load_sql_settings(broken).failure()[0]


def test_a_sqlite_url_gives_a_sqlite_policy_without_schema() -> None:
    settings = SqlSettings.model_validate(
        {"datasources": [_datasource(url="sqlite:///data/payments.db")]}
    )
    policy = policy_from_settings(settings.datasources[0])
    assert (policy.dialect, policy.schema) == ("sqlite", None)


def test_the_grants_are_column_level_select_on_the_allowlist_only() -> None:
    settings = load_sql_settings(SQL_DATA / "policy.toml").unwrap()
    policy = policy_from_settings(settings.datasources[0])
    grants = grant_statements(policy, "payments", "'factledger_ro'@'10.0.0.%'")
    assert grants[:2] == (
        "GRANT SELECT (`id`, `status`, `amount`, `created_at`, `user_id`) "
        "ON `payments`.`orders` TO 'factledger_ro'@'10.0.0.%'",
        "GRANT SELECT (`id`, `name`, `email`, `password_hash`, `api_token`) "
        "ON `payments`.`users` TO 'factledger_ro'@'10.0.0.%'",
    )
    assert len(grants) == len(policy.tables)


def test_a_postgresql_datasource_names_its_schema_and_gets_the_postgres_dialect() -> None:
    settings = SqlSettings.model_validate(
        {
            "datasources": [
                _datasource(
                    url="postgresql+psycopg://ro:pw@db:5432/payments",
                    schema="billing",
                    time_zone="-05:00",
                    max_estimated_rows=5000,
                    max_estimated_cost=2500.0,
                )
            ]
        }
    )
    datasource = settings.datasources[0]
    assert datasource.dialect == "postgres"
    policy = policy_from_settings(datasource)
    assert policy.dialect == "postgres"
    assert policy.schema == "billing"
    assert policy.time_zone.utcoffset(None) is not None
    assert (datasource.max_estimated_rows, datasource.max_estimated_cost) == (5000, 2500.0)
    default = SqlSettings.model_validate(
        {"datasources": [_datasource(url="postgresql+psycopg://ro@db/payments")]}
    )
    assert policy_from_settings(default.datasources[0]).schema == "public"


def test_the_cost_gate_and_time_zone_have_sane_defaults() -> None:
    datasource = SqlSettings.model_validate({"datasources": [_datasource()]}).datasources[0]
    assert datasource.max_estimated_rows == 1_000_000
    assert datasource.max_estimated_cost is None
    assert datasource.time_zone == "+00:00"


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"schema": "public"}, "sql.datasources.0"),
        ({"time_zone": "Europe/Paris"}, "sql.datasources.0.time_zone"),
        ({"max_estimated_rows": 0}, "sql.datasources.0.max_estimated_rows"),
        ({"max_estimated_cost": -1.0}, "sql.datasources.0.max_estimated_cost"),
        ({"url": "postgresql+psycopg://ro:secret-password@db:5432/"}, "sql.datasources.0.url"),
        ({"url": "postgresql://ro@db/payments"}, "sql.datasources.0.url"),
    ],
)
def test_a_bad_cost_time_zone_or_schema_key_is_named_and_no_password_shown(
    overrides: dict[str, object], key: str
) -> None:
    errors = _errors({"datasources": [_datasource(**overrides)]})
    assert any(line.startswith(key) for line in errors), errors
    assert not any("secret-password" in line for line in errors)


def test_the_postgresql_grants_are_connect_usage_and_column_selects_only() -> None:
    from factledger.adapters.sql.grants import postgres_grant_statements, postgres_role_statements

    settings = SqlSettings.model_validate(
        {"datasources": [_datasource(url="postgresql+psycopg://ro@db/payments")]}
    )
    policy = policy_from_settings(settings.datasources[0])
    assert postgres_grant_statements(policy, "payments", "factledger_ro") == (
        'GRANT CONNECT ON DATABASE "payments" TO "factledger_ro"',
        'GRANT USAGE ON SCHEMA "public" TO "factledger_ro"',
        'GRANT SELECT ("id", "status") ON "public"."orders" TO "factledger_ro"',
    )
    role = postgres_role_statements("factledger_ro", "'pw'")
    assert role[0].startswith("CREATE ROLE \"factledger_ro\" LOGIN PASSWORD 'pw' NOSUPERUSER")
    assert 'ALTER ROLE "factledger_ro" SET default_transaction_read_only = on' in role
