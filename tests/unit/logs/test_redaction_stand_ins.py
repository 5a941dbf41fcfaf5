"""Values that only look like credentials stay (masks, references, format directives, test
verdicts, key fingerprints, image names, source lines, setting cookies, methods of
authentication), while the credentials beside them still go."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor
from factledger.domain.logs.redaction.value_shapes import is_stand_in

KEEPS = [
    ("password: ********", "********"),
    ("  client_secret: [REDACTED]", "[REDACTED]"),
    ("API_TOKEN=${API_TOKEN}", "${API_TOKEN}"),
    ('{"password":"{{ .Values.db.password }}"}', "{{ .Values.db.password }}"),
    ("curl -sS -w '%{http_code} %{size_download}' -o out http://api", "%{http_code}"),
    ("Access denied for user 'web'@'db' (using password: YES)", "using password: YES"),
    ("Access denied for user 'ro'@'db' (using password: NO)", "using password: NO"),
    ("--- PASS: TestSecretStore (0.01s)", "--- PASS: TestSecretStore (0.01s)"),
    ("    --- PASS: TestTokenParse/empty_case (0.00s)", "TestTokenParse/empty_case"),
    ("ssh2: RSA SHA256:q9Lm2Xc7Vb3Nz8Kd4Rt6Yw1Ua5Pe0Sf2Gh7Jk3Lo9Ii", "SHA256:q9Lm2Xc7Vb3Nz8Kd4Rt6"),
    ("docker pull quay.io/team/indexer:3.2.0", "quay.io/team/indexer:3.2.0"),
    ("import github.com/org/session/store failed", "github.com/org/session/store"),
    ("at SessionStore.kt:77 in refresh", "SessionStore.kt:77"),
    ("Set-Cookie: theme=light; Path=/", "theme=light"),
    ("Cookie: lang=pt-BR; tz=Asia/Tokyo", "tz=Asia/Tokyo"),
    ("auth_method=password mfa=webauthn", "auth_method=password mfa=webauthn"),
    ("invalid token: audience mismatch", "invalid token: audience mismatch"),
]

LEAKS = [
    ("DB_PASSWORD=${DB_PASSWORD:-Qw7!rTz9Lm}", "Qw7!rTz9Lm"),
    ("Cookie: theme=Zx81kLq0Pw72Mn5Vb3; lang=de", "Zx81kLq0Pw72Mn5Vb3"),
    ("Cookie: sid=plainword", "plainword"),
    ("key SHA256:Q9Lm2Xc7Vb3Nz8Kd4Rt6Yw1Ua5Pe0Sf2Gh7Jk3Lo9IiAbCd7", "Q9Lm2Xc7Vb3Nz8Kd"),
    ("PASS: Hunter2Xy!", "Hunter2Xy!"),
    ("git clone https://ci:Gh7kLm29Qp@git.example.org/team/app.git", "Gh7kLm29Qp"),
    ("token: Zq8vX3mK1pL7", "Zq8vX3mK1pL7"),
]


@pytest.mark.parametrize(("line", "kept"), KEEPS)
def test_stand_ins_stay(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)


@pytest.mark.parametrize(("line", "secret"), LEAKS)
def test_credentials_beside_them_go(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("******", True),
        ("${PGPASSWORD}", True),
        ("$DB_PASS", True),
        ("%APP_SECRET%", True),
        ("${X:-fallback}", False),
        ("$6$salt$hash", False),
        ("Xk3!abcd", False),
        ("NOPE", False),
    ],
)
def test_stand_in_shapes(value: str, expected: bool) -> None:
    assert is_stand_in(value) is expected
