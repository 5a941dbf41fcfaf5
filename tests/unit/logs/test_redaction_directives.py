"""Credentials in configuration directives written ``name value`` and in quoted key and value
pairs of code (``define('DB_PASSWORD', '…')``, ``ENV["API_TOKEN"] = "…"``, ``'pw' => '…'``)."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

LEAKS = [
    ("requirepass fooBar9921xyz", "fooBar9921xyz"),
    ("masterauth lowerletters", "lowerletters"),
    ("  rootpw {SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=", "W6ph5Mm5Pz8GgiULbPgzG37mj9g"),
    ("bindpw s3cretBind", "s3cretBind"),
    ("db_password Hr!Adm1n2026", "Hr!Adm1n2026"),
    ("bind 0.0.0.0\nrequirepass fooBar9921xyz\nport 6379", "fooBar9921xyz"),
    ("CONFIG SET requirepass fooBar9921xyz", "fooBar9921xyz"),
    ("define( 'DB_PASSWORD', 'wpDbPw_9a8b' );", "wpDbPw_9a8b"),
    ('os.environ["API_TOKEN"] = "tok3nValue99"', "tok3nValue99"),
    ("ENV['SECRET_KEY_BASE'] = 'abcdefgh12345678'", "abcdefgh12345678"),
    ("'password' => 'laravelpw',", "laravelpw"),
    ('config.set("smtp_password", "plainpw")', "plainpw"),
    ('putenv("DB_PASS", "lowerpass")', "lowerpass"),
]

KEEPS = [
    ('auth_basic "Restricted Area";', "Restricted Area"),
    ("ssl_password_file /etc/nginx/pass.txt;", "/etc/nginx/pass.txt"),
    ("requirepass", "requirepass"),
    ("password_min_length 12", "password_min_length 12"),
    ("token_ttl 3600", "token_ttl 3600"),
    ("define('DB_HOST', 'localhost');", "localhost"),
    ("'password_timeout' => 10800,", "10800"),
    ("'token_lifetime' => '3600'", "'3600'"),
    ('os.environ["LOG_LEVEL"] = "debug"', '"debug"'),
    ("password expired", "password expired"),
    ("secret rotated", "secret rotated"),
]


@pytest.mark.parametrize(("line", "secret"), LEAKS)
def test_directive_and_quoted_pair_values_are_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), KEEPS)
def test_look_alikes_stay(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)
