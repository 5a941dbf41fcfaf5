"""A value stored under a credential's name by a command that sets one goes, whatever the
tool; a password after a client's own flag goes; a switch flag takes no value."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

SECRET = "Qm7vX2pLr9Tw"

LEAKS = [
    "rclone config create remote s3 secret_access_key {s}",
    "heroku config:set API_TOKEN {s} -a shop",
    'dotnet user-secrets set "Db:Password" {s}',
    "consul kv put app/db_password {s}",
    "etcdctl put /app/api_key {s}",
    "npm config set //registry.example.org/:_authToken {s}",
    "kv put secret/app/jwtSecret {s}",
    "zk set /config/mail/smtp_password {s}",
    "az webapp config appsettings set --settings X=1 && az store STRIPE_SECRET {s}",
    "redis-cli -h cache-1 -p 6379 -a {s} --no-auth-warning info",
    "keydb-cli -a {s} ping",
    "valkey-cli -a '{s}' ping",
    "redis-benchmark -a {s} -q -n 1000",
    "vncpasswd -f <<< {s}",
    "echo {s} | sudo -S systemctl restart api",
    'printf "%s\\n" "{s}" | passwd --stdin deploy',
]
KEPT = [
    "api_key missing for tenant 42",
    "client_secret rotated at 10:00",
    "config set max_tokens 4096",
    "set token_ttl_seconds 3600",
    "update client_secret done",
    "set api_key for tenant 5",
    "set db_password $DB_PASSWORD",
    "set --password-file /etc/app/pw",
    "set password reset flag for user 7",
    "app --skip-auth true --no-password-prompt yes",
    "redis-cli -a $REDIS_PASSWORD ping",
]


@pytest.mark.parametrize("line", LEAKS)
@pytest.mark.parametrize("before", ["", "job 12\t"])
def test_the_value_goes(line: str, before: str) -> None:
    text = before + line.format(s=SECRET)
    for redacted in (Redactor().redact(text), Redactor(word_hook=str).redact_words(text)[0]):
        assert SECRET not in redacted
        assert "<SECRET>" in redacted


@pytest.mark.parametrize("line", KEPT)
def test_a_line_with_no_stored_value_stays(line: str) -> None:
    assert Redactor().redact(line) == line


def test_the_word_after_a_switch_is_an_argument_not_a_credential() -> None:
    line = "redis-cli -a $REDIS_PASSWORD --no-auth-warning info"
    assert Redactor().redact(line) == line


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("mysql -h db -u root -pS3cretPw orders", "mysql -h db -u root -p<SECRET> orders"),
        ("mysqldump -uroot -pHunter2x shop -e 1", "mysqldump -uroot -p<SECRET> shop -e 1"),
        ("java -keyPassword Qm7vX2pLr9Tw -jar a.jar", "java -keyPassword <SECRET> -jar a.jar"),
        ("keytool -storepass Qm7vX2pLr9Tw -v", "keytool -storepass <SECRET> -v"),
    ],
)
def test_the_word_after_a_short_option_with_its_value_attached_is_an_argument(
    line: str, expected: str
) -> None:
    assert Redactor().redact(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "git clone https://a1B2c3D4e5F6g7H8i9J0k1L2:x-oauth-basic@git.example.org/r.git",
            "git clone https://<SECRET>:x-oauth-basic@<HOST>/r.git",
        ),
        (
            "fetch https://a1B2c3D4e5F6g7H8i9J0k1L2:x@h.example/x",
            "fetch https://<SECRET>:<SECRET>@<HOST>/x",
        ),
        (
            "remote https://x-token-auth:Qm7vX2pLr9TwAb3@bitbucket.org/acme/r.git",
            "remote https://x-token-auth:<SECRET>@<HOST>/acme/r.git",
        ),
        (
            "pull url: https://api_key:Qm7vX2pLr9Tw@api.example.com/v1 ok",
            "pull url: https://api_key:<SECRET>@<HOST>/v1 ok",
        ),
        (
            "db postgres://app_user_2024_reporting:Pw123@db/x",
            "db postgres://app_user_2024_reporting:<SECRET>@db/x",
        ),
    ],
)
def test_a_token_written_as_the_user_of_a_url_goes_a_user_name_stays(
    line: str, expected: str
) -> None:
    assert Redactor().redact(line) == expected
