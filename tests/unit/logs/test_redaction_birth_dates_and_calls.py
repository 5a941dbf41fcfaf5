"""Dates of birth after their name in several languages and spellings go; ordinary dates and
timestamps stay. Getter calls keep their argument (a name) and lose what they returned; a
connect call's password goes whatever expression names its host."""

from __future__ import annotations

import re

import pytest

from factledger.domain.logs.redaction import Redactor

GOES = [
    # an IPv4 address inside an IPv6 one is one address
    ("::ffff:10.0.0.1", "<IP>"),
    ("client [::ffff:10.0.0.1]:443 closed", "client [<IP>]:443 closed"),
    ("nat64 64:ff9b::10.0.0.1 ok", "nat64 <IP> ok"),
    ("from 0:0:0:0:0:ffff:192.168.1.20", "from <IP>"),
    # dates of birth after their name, in several languages and spellings
    ("Patient Müller geb. 01.02.1980", "Patient Müller geb. <SECRET>"),
    ("geboren am 1. Februar 1980", "geboren am <SECRET>"),
    ("Geburtsdatum: 01.02.1980", "Geburtsdatum: <SECRET>"),
    ("Jean Dupont, né le 01/02/1980", "Jean Dupont, né le <SECRET>"),
    ("née le 3 mars 1975 à Lyon", "née le <SECRET> à Lyon"),
    ("date de naissance : 01/02/1980", "date de naissance : <SECRET>"),
    ("fecha de nacimiento: 01/02/1980", "fecha de nacimiento: <SECRET>"),
    ("data di nascita 01/02/1980", "data di nascita <SECRET>"),
    ("born on February 1st, 1980", "born on <SECRET>"),
    ("DOB 19800201", "DOB <SECRET>"),
    ("D.O.B.: 1980/02/01", "D.O.B.: <SECRET>"),
    # a getter's argument is a name; what it returned is the secret
    (
        'keyring.get_password("smtp", "ops") returned "Vb8#kq2Lzt"',
        'keyring.get_password("smtp", "ops") returned "<SECRET>"',
    ),
    ("get_secret('db/main') -> 'Vb8#kq2Lzt'", "get_secret('db/main') -> '<SECRET>'"),
    # a connect call's host written as an expression
    (
        "pymysql.connect(cfg['host'], 'bob', 'Vb8#kq2Lzt')",
        "pymysql.connect(cfg['host'], 'bob', '<SECRET>')",
    ),
    (
        "connect(os.environ['DB_HOST'], 'bob', 'pw')",
        "connect(os.environ['DB_HOST'], 'bob', '<SECRET>')",
    ),
    ('connect(f"{host}", "bob", "pw")', 'connect(f"{host}", "bob", "<SECRET>")'),
    ("connect(get_host(), 'bob', 'pw')", "connect(get_host(), 'bob', '<SECRET>')"),
    ("cx_Oracle.connect('scott', 'Tiger9!', dsn)", "cx_Oracle.connect('scott', '<SECRET>', dsn)"),
]

KEPT = [
    # timestamps, versions and dates that are no birth dates
    "2024-06-01T12:00:00Z geplant 01.02.1980",
    "Backup vom 01.02.2024 erstellt",
    "Build geb 12 fertig",
    "le 01/02/2024 job terminé",
    "born-again worker pool restarted 2024-06-01",
    # getter calls: names and stand-ins stay
    'get_password("alias")',
    'keyring.get_password("smtp", "ops")',
    "getSecret('db/main') returned None",
    'fetch_token("orders-api") ok',
    # calls that are no logins
    'pool.connect("db-2", "orders", 5432)',
    "ws.connect(url, timeout, 3)",
    # quantities under credential-sounding keys
    "token_ttl_seconds=3600 max_tokens=4096",
    "auth: login ok",
]


@pytest.mark.parametrize(("line", "expected"), GOES)
def test_the_value_goes_and_its_name_stays(line: str, expected: str) -> None:
    assert Redactor().redact(line) == expected


@pytest.mark.parametrize("line", KEPT)
def test_look_alikes_stay_intact(line: str) -> None:
    assert Redactor().redact(line) == line


CALLS_GO = [
    # login and connect calls named by their last word, after a handle, around a port
    ('ftp_login($c, "bob", "Kx9mPq2zR77")', 'ftp_login($c, "bob", "<SECRET>")'),
    ("ldap_bind($conn, 'cn=admin', 'Kx9mPq2zR77')", "ldap_bind($conn, 'cn=admin', '<SECRET>')"),
    (
        "mysqli_connect('db1', 'bob', 'Kx9mPq2zR77', 'app')",
        "mysqli_connect('db1', 'bob', '<SECRET>', 'app')",
    ),
    ("new PDO($dsn, 'bob', 'Kx9mPq2zR77')", "new PDO($dsn, 'bob', '<SECRET>')"),
    (
        'DriverManager.getConnection(url, "bob", "Kx9mPq2zR77")',
        'DriverManager.getConnection(url, "bob", "<SECRET>")',
    ),
    ("ssh.connect(host, 22, 'bob', 'Kx9mPq2zR77')", "ssh.connect(host, 22, 'bob', '<SECRET>')"),
    (
        "imaplib.IMAP4_SSL('mail').login('bob', 'Kx9mPq2zR77')",
        "imaplib.IMAP4_SSL('mail').login('bob', '<SECRET>')",
    ),
    (
        "requests.get(url, auth=('bob', 'Kx9mPq2zR77'))",
        "requests.get(url, auth=('bob', '<SECRET>'))",
    ),
    # a credential under a key written with an arrow, a password asked for a quoted URL
    ("password -> Kx9mPq2zR77", "password -> <SECRET>"),
    (
        "Password for 'https://bob@example.org': Kx9mPq2zR77",
        "Password for 'https://<EMAIL>': <SECRET>",
    ),
    # a value that is no call: its letters hold digits
    ("db_password_encrypted=ENC(Zx8Cv7Bn6Mq5Wl4Ek3Rt2Yu)", "db_password_encrypted=<SECRET>"),
    ("password=Summer(2024)", "password=<SECRET>"),
    # a password holding `@` is no Oracle connect string
    (
        "pymysql.connect(cfg['host'], 'app', 'TtlakT6quG@')",
        "pymysql.connect(cfg['host'], 'app', '<SECRET>')",
    ),
    # documents and national ids
    ("dl# D1234567", "dl# <NATIONAL_ID>"),
    ("DLN: D1234567", "DLN: <NATIONAL_ID>"),
    ("social security no. 123 45 6789", "social security no. <NATIONAL_ID>"),
]

CALLS_KEPT = [
    'pw = getpass("Enter password for bob: ")',
    "secret = vault.read(path)",
    "api_key=get_key()",
    "token -> token.trim()",
    "session -> closed",
    "sock.disconnect(host, 'bob', 'x')",
    "password_hash_algo=bcrypt",
    "pass=1/3",
    "dl 12345678 files",
    # an SSH key's digest that starts with `+` or `/`
    "key SHA256:+Pq7XAr4Nk9AGz6tFewjNQSsBJI546sgvCmvQ4S2yL8.",
    "SHA256:/Pq7XAr4Nk9AGz6tFewjNQSsBJI546sgvCmvQ4S2yL8",
]


@pytest.mark.parametrize(("line", "expected"), CALLS_GO)
def test_a_password_by_position_or_arrow_goes(line: str, expected: str) -> None:
    assert Redactor().redact(line) == expected


@pytest.mark.parametrize("line", CALLS_KEPT)
def test_code_that_holds_no_credential_stays(line: str) -> None:
    assert Redactor().redact(line) == line


@pytest.mark.parametrize(
    "line",
    [
        'headers: DD-APPLICATION-KEY: a3aad557e3d1ac5395bf9ea9edeb75d21a05dda7("',
        "api_key: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b(x)",
        'token=ghp_4f9Kx2Lq8Zr7Tw1Yb6Nc3Vd5Hs0Jm("',
    ],
)
def test_a_key_glued_to_a_bracket_is_no_call_in_code(line: str) -> None:
    """A secret-shaped value followed by ``(`` is not a function name: it goes."""
    redacted = Redactor().redact(line)
    value = re.split(r"[:=] ?", line)[-1].partition("(")[0]
    assert value[:8] not in redacted, redacted
