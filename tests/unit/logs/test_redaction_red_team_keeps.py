"""Values the red-team set found masked that must stay: counts, durations, ids and sizes under
keys with a credential word, a Kubernetes object's name, versions, the fields after an inline
``Cookie`` header, and the near misses of the red-team families."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

QUANTITIES = [
    ("auth: token_ttl_seconds=3600 ok", "token_ttl_seconds=3600"),
    ("auth: password_max_age_days=90", "password_max_age_days=90"),
    ("session: idle_timeout_ms=1500 renewed", "idle_timeout_ms=1500"),
    ("token: refresh_interval=15m", "refresh_interval=15m"),
    ("token_bucket_capacity=100", "token_bucket_capacity=100"),
    ("ratelimit secret_bucket_burst=20 secret_bucket_refill=5", "secret_bucket_burst=20"),
    ("api_key_id=42", "api_key_id=42"),
    ("credential_id=9817 rotated", "credential_id=9817"),
    ('{"token_id": 311, "ok": true}', '"token_id": 311'),
    ("auth: exp_in=900", "exp_in=900"),
    ("token_exp_in=900", "token_exp_in=900"),
    ("password_history_depth=5 password_quota=3", "password_quota=3"),
]

NAMES = [
    ('secret "db-credentials" not found', 'secret "db-credentials" not found'),
    ('Error from server (NotFound): secrets "api-token" not found', '"api-token"'),
    (
        'MountVolume.SetUp failed for volume "creds" : secret "tls-certs" not found',
        'secret "tls-certs" not found',
    ),
    ("secret/app-env created", "secret/app-env created"),
    ('secret "registry-auth" deleted', '"registry-auth"'),
]

VERSIONS = [
    ("agent_version=7.52.1.1", "7.52.1.1"),
    ('{"agent_version":"10.0.19041.1"}', "10.0.19041.1"),
    ('{"agent_version":"7.52.1.1","host_ip":"10.2.3.4"}', "7.52.1.1"),
    ("build=1.2.3.4", "1.2.3.4"),
    ("os_version=6.1.7601.2 build=7601", "6.1.7601.2"),
    ("client_ver=1.2.3.4 ok", "1.2.3.4"),
    ("driver.version=4.3.2.1", "4.3.2.1"),
]

COOKIES = [
    (
        "Cookie: sid=abc123def456 trace_id=4bf92f3577b34da6a3ce929d0e0e4736",
        "trace_id=4bf92f3577b34da6a3ce929d0e0e4736",
    ),
    ("req Cookie: a=b; sid=xyz98765 status=200 dur_ms=35", "status=200 dur_ms=35"),
    ("cookie=sessionid=Zq81kd02 request_id=77ab01 bytes=512", "request_id=77ab01 bytes=512"),
]

NEAR_MISSES = [
    ("le mot de passe est incorrect", "le mot de passe est incorrect"),
    ("Passwort ist falsch", "Passwort ist falsch"),
    ("la contraseña es incorrecta", "la contraseña es incorrecta"),
    ("Passworteingabe fehlgeschlagen", "Passworteingabe fehlgeschlagen"),
    ("パスワードを変更しました", "パスワードを変更しました"),
    ("密码错误 count=3", "密码错误 count=3"),
    ("password set to expire in 90 days", "password set to expire in 90 days"),
    ("token set to default", "token set to default"),
    ("SMTP AUTH LOGIN failed for user", "SMTP AUTH LOGIN failed for user"),
    ("250-AUTH PLAIN LOGIN CRAM-MD5", "250-AUTH PLAIN LOGIN CRAM-MD5"),
    ("docker run -u 1000:1000 app", "-u 1000:1000"),
    ("error 0x80070005 from CreateFile", "0x80070005"),
    ("set flags to 0x80000000 for target 0x0040AFB0", "to 0x80000000 for target 0x0040AFB0"),
    ("segfault at 0x7ffd1234 ip 0000000000401136", "0x7ffd1234"),
    ("fnr=02106381945 kimlik 96252760121", "fnr=02106381945 kimlik 96252760121"),
    ("window from 1717243200 to 1717246800", "1717243200"),
    ("order 96252760120 shipped", "96252760120"),
    ("count=703423665 rows", "703423665"),
    ("build rzp_test_suite finished", "rzp_test_suite"),
    ("commit 3f786850e387550fdab836ed7e6dc881de23001b", "3f786850e387550fdab836ed7e6dc881de23001b"),
    ("q=%2Fsearch%3Fpage%3D2%26size%3D50", "page%3D2%26size%3D50"),
    ("next=%2Fa%3Ftoken_count%253D12", "token_count%253D12"),
    ("user=hans@example.com version=1.2", "version=1.2"),
]

MORE_NEAR_MISSES = [
    ("mot de passe oublié: demande envoyée", "demande envoyée"),
    ("parola chiave: kubernetes", "kubernetes"),
    ("Passwort-Richtlinie: mindestens 8 Zeichen", "mindestens 8 Zeichen"),
    ("secret set to /run/secrets/db", "/run/secrets/db"),
    ("session token set to 3600 seconds", "3600 seconds"),
    ("password policy set to strict", "password policy set to strict"),
    ("password is now required", "password is now required"),
    ("request identified by id 42", "request identified by id 42"),
    ("user identified by email address", "identified by email address"),
    ("auth login user", "auth login user"),
    ("AUTH PLAIN mechanism enabled", "AUTH PLAIN mechanism enabled"),
    ("chown -u root:wheel /srv", "-u root:wheel"),
    ("ssh -a host:22", "-a host:22"),
    ("curl -u ${CI_USER}:${CI_PASS} https://h", "${CI_PASS}"),
    ("read from 0x7ffe0000 failed", "0x7ffe0000"),
    ("server crashed at 0xDEADBEEF", "0xDEADBEEF"),
    ("kimlik dogrulama 3 deneme", "3 deneme"),
    ("nir=12 samples", "nir=12"),
]

KEEPS = MORE_NEAR_MISSES + QUANTITIES + NAMES + VERSIONS + COOKIES + NEAR_MISSES


@pytest.mark.parametrize(("line", "kept"), KEEPS, ids=[line for line, _ in KEEPS])
def test_a_value_that_names_no_credential_stays(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), KEEPS, ids=[line for line, _ in KEEPS])
def test_it_stays_in_a_line_with_a_tab_too(line: str, kept: str) -> None:
    assert kept in Redactor().redact("x\t" + line)


def test_an_address_beside_a_version_is_still_replaced() -> None:
    redacted = Redactor().redact('{"agent_version":"7.52.1.1","host_ip":"10.2.3.4"}')
    assert "10.2.3.4" not in redacted


def test_the_cookie_before_the_field_is_still_replaced() -> None:
    redacted = Redactor().redact("Cookie: sid=abc123def456 trace_id=4bf92f3577b34da6")
    assert "abc123def456" not in redacted
