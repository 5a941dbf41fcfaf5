"""Passwords passed by position to login, connect and setter calls go; the user, the host, the
database and the call's other arguments stay."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

PW = "Vb8#kq2Lzt"

GOES = [
    ('imap.login("ops@mail.example.net", "{pw}")', 'imap.login("<EMAIL>", "<SECRET>")'),
    ("session.login('reporter', '{pw}')", "session.login('reporter', '<SECRET>')"),
    (
        'conn.simple_bind_s("uid=svc,ou=apps,dc=example,dc=net", "{pw}")',
        'conn.simple_bind_s("uid=svc,ou=apps,dc=example,dc=net", "<SECRET>")',
    ),
    ("api.authenticate(username, '{pw}')", "api.authenticate(username, '<SECRET>')"),
    (
        'requests.get(u, auth=HTTPBasicAuth("ci", "{pw}"))',
        'requests.get(u, auth=HTTPBasicAuth("ci", "<SECRET>"))',
    ),
    ('pika.PlainCredentials("events", "{pw}")', 'pika.PlainCredentials("events", "<SECRET>")'),
    (
        'MySQLdb.connect("pg-7", "etl", "{pw}", "warehouse")',
        'MySQLdb.connect("pg-7", "etl", "<SECRET>", "warehouse")',
    ),
    (
        'ftplib.FTP_TLS("files-2", "upload", "{pw}")',
        'ftplib.FTP_TLS("files-2", "upload", "<SECRET>")',
    ),
    (
        'oracledb.connect("hr", "{pw}", "ora-3:1521/hrpdb")',
        'oracledb.connect("hr", "<SECRET>", "ora-3:1521/hrpdb")',
    ),
    (
        'keyring.set_password("mailer", "bot", "{pw}")',
        'keyring.set_password("mailer", "bot", "<SECRET>")',
    ),
    ('store.put_secret("prod/db", "{pw}")', 'store.put_secret("prod/db", "<SECRET>")'),
]

KEPT = [
    'sqlite3.connect("/var/lib/app/state.db")',
    "ws.connect(url, timeout, 3)",
    'psycopg.connect("dbname=orders connect_timeout=5")',
    'pool.connect("db-2", "orders", 5432)',
    "login failed for user alice (3 attempts) from app-4",
    'auth.check("session expired")',
    'logger.info("connect", "db-2", "orders")',
    'log.error("login", "svc-9", 42)',
]


@pytest.mark.parametrize(("line", "expected"), GOES)
def test_the_password_passed_by_position_goes(line: str, expected: str) -> None:
    text = line.format(pw=PW)
    assert Redactor().redact(text) == expected
    assert Redactor().redact(f"job 7\t{text}") == f"job 7\t{expected}"


@pytest.mark.parametrize("line", KEPT)
def test_a_call_without_a_password_by_position_stays(line: str) -> None:
    assert Redactor().redact(line) == line


def test_a_host_name_called_as_code_is_no_host_and_one_before_its_address_is() -> None:
    assert Redactor().redact('cache.info("warm")') == 'cache.info("warm")'
    assert Redactor().redact("from mx.example.org(10.0.0.5)") == "from <HOST>(<IP>)"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ENV SMTP_PASSWORD {pw}", "ENV SMTP_PASSWORD <SECRET>"),
        ('db_password <- "{pw}"', 'db_password <- "<SECRET>"'),
        ('AuthToken := "{pw}"', 'AuthToken := "<SECRET>"'),
        ("isql -S syb1 -U sa -P {pw}", "isql -S syb1 -U sa -P <SECRET>"),
        ("grant: user etl identified by {pw}", "grant: user etl identified by <SECRET>"),
        ("db_pass: !!binary VmI4a3EyTHp0OQ==", "db_pass: <SECRET>"),
        (
            "gcloud secrets versions add smtp --data-file=- <<< {pw}",
            "gcloud secrets versions add smtp --data-file=- <<< <SECRET>",
        ),
        (
            "printf {pw} | vault kv put kv/smtp password=-",
            "printf <SECRET> | vault kv put kv/smtp password=-",
        ),
    ],
)
def test_a_password_assigned_in_code_or_given_to_a_client_goes(line: str, expected: str) -> None:
    assert Redactor().redact(line.format(pw=PW)) == expected


@pytest.mark.parametrize(
    "line",
    [
        "retries := 3",
        "n <- 12",
        "ENV LOG_LEVEL debug",
        "a <- b",
        "request identified by id 42",
        "echo ready | tee --output=-",
    ],
)
def test_an_assignment_of_no_credential_stays(line: str) -> None:
    assert Redactor().redact(line) == line
