"""Credentials the blind red-team set found whole where no key stands right before them: the
``value`` field of an object under a credential key (Spring's actuator dump, Terraform
outputs), and a URL path segment after a segment naming a hook or a link."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

MASKED = [
    ('"spring.mail.password": {"value": "A3TQG0+Qc5X3ue", "origin": "env"}', "A3TQG0+Qc5X3ue"),
    ('{"db_password":{"sensitive":true,"value":"hunter2-Prod"}}', "hunter2-Prod"),
    ('"api_token": {"origin": "vault", "value": "Zq9x8LmP"}', "Zq9x8LmP"),
    ('"client-secret": { "secret": "s3cr3t!" }', "s3cr3t!"),
    ('"POST /hooks/ingest/Vd1xI6m54H8AL5ZT6l7E6vjp/events HTTP/1.1" 202 0', "Vd1xI6m54H8AL5ZT6l7E"),
    ("GET https://api.example.org/webhook/Q7kLm2Np9Rs4Tv6Wx8Yz?x=1", "Q7kLm2Np9Rs4Tv6Wx8Yz"),
    ("redirect /account/reset/K9fj3Lq0Zp7Xc2Vb5Nm8 302", "K9fj3Lq0Zp7Xc2Vb5Nm8"),
    ("GET /invite/a8Fk3j_Qz0Lp9Xc2Vb5N HTTP/2", "a8Fk3j_Qz0Lp9Xc2Vb5N"),
]

KEPT = [
    '"spring.mail.password": {"value": "******", "origin": "env"}',
    '"password_policy": {"value": "strong"}',
    '"server.port": {"value": "8080", "origin": "env"}',
    '"token_ttl": {"value": 3600}',
    "POST /hooks/github HTTP/1.1",
    "POST /hooks/ingest/42/events HTTP/1.1",
    "GET /webhook/3f2c9a1e-7b4d-4e8a-9c1f-2d3e4f5a6b7c/status",
    "GET /keys/rotation-schedule-2026/status",
]


@pytest.mark.parametrize(("line", "secret"), MASKED)
def test_a_credential_in_an_object_or_a_hook_path_goes(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize("line", KEPT)
def test_masks_settings_names_and_ids_there_stay(line: str) -> None:
    assert Redactor().redact(line) == line
